/**
 * Headers the gateway adds when it forwards a request to a service's internal port. A service
 * believes them only with the right internal token (and, in Kubernetes, a NetworkPolicy lets
 * only the gateway reach that port).
 */
export const INTERNAL_HEADERS = {
  token: 'x-trilha-internal-token',
  /** The authenticated store. */
  loja: 'x-trilha-loja',
  /** `api` or `mcp`: who made the request. */
  origem: 'x-trilha-origem',
} as const;

export const ORIGENS = ['api', 'mcp'] as const;
export type OrigemRequisicao = (typeof ORIGENS)[number];

/** OpenAPI extensions the gateway routes by, or serves the document by (see tools/openapi). */
export const OPENAPI_EXTENSIONS = {
  service: 'x-trilha-servico',
  limitPerMinute: 'x-trilha-limite-por-minuto',
  withoutToken: 'x-trilha-sem-token',
  /**
   * On a date-time property whose valid values lie within a span before now: its example is
   * the instant this many days before the document is served (apps/api-gateway), so the
   * example is a value the API accepts on the day it is read.
   */
  exampleDaysAgo: 'x-trilha-exemplo-dias-atras',
} as const;

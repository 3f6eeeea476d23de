import { OPENAPI_EXTENSIONS, PORTAL_SECURITY_SCHEME } from '@trilha/http';

/** The parts of an OpenAPI document the gateway routes by. */
export interface OpenApiDocument {
  paths: Record<string, object>;
}

type Operation = {
  operationId?: string;
  parameters?: { in?: string; name?: string }[];
  security?: Record<string, string[]>[];
} & Record<string, unknown>;

export interface ApiRoute {
  /** The operation's id: the counter of its rate limit. */
  id: string;
  method: string;
  /** OpenAPI path template under /v1, e.g. `/pedidoRastreio/evento/{hash}`. */
  path: string;
  /** The service that serves it; `api-gateway` for the gateway's own routes. */
  service: string;
  limitPerMinute?: number;
  pattern: RegExp;
  /** Literal segments first: `/pedidos` must beat `/{x}` when both match. */
  parameters: number;
  /** The operation honours an `Idempotency-Key` header: a request that carries one may be sent twice. */
  idempotencyKey: boolean;
  /** A store portal session may stand for the token: the operation's `security` lists the `portal` scheme. */
  portalSession: boolean;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function toPattern(template: string): RegExp {
  const source = template
    .split('/')
    .map((segment) => (/^\{[^}]+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}

/**
 * The routes of the public API, read from the OpenAPI document the gateway serves: the same
 * document decides what is routed where, what is documented, and what the reference tool
 * server describes, so the three cannot disagree.
 */
export function apiCatalog(document: OpenApiDocument): ApiRoute[] {
  const routes: ApiRoute[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    const operations = item as Record<string, Operation | undefined>;
    for (const method of METHODS) {
      const operation = operations[method];
      if (!operation) continue;
      const service = operation[OPENAPI_EXTENSIONS.service];
      if (typeof service !== 'string') throw new Error(`${method.toUpperCase()} ${path} has no ${OPENAPI_EXTENSIONS.service}`);
      const limit = operation[OPENAPI_EXTENSIONS.limitPerMinute];
      routes.push({
        id: operation.operationId ?? `${method} ${path}`,
        method: method.toUpperCase(),
        path,
        service,
        limitPerMinute: typeof limit === 'number' ? limit : undefined,
        pattern: toPattern(path),
        parameters: (path.match(/\{/g) ?? []).length,
        idempotencyKey: (operation.parameters ?? []).some((parameter) => parameter.in === 'header' && parameter.name?.toLowerCase() === 'idempotency-key'),
        portalSession: (operation.security ?? []).some((requirement) => Object.hasOwn(requirement, PORTAL_SECURITY_SCHEME)),
      });
    }
  }
  return routes.sort((a, b) => a.parameters - b.parameters);
}

/**
 * The route a request matches, given its method and its path below /v1 (no query). A path is
 * its most concrete template's, as OpenAPI matches concrete paths before templated ones:
 * `/webhook/entregas/recuperar` (POST) is not `/webhook/entregas/{idEntrega}` (GET) too.
 */
export function matchRoute(routes: ApiRoute[], method: string, path: string): ApiRoute | undefined {
  const route = routes.find((candidate) => candidate.method === method && candidate.pattern.test(path));
  // Routes sort by parameters: a more concrete template that also matches comes before it.
  if (route && route.parameters > 0 && routes.some((other) => other.parameters < route.parameters && other.pattern.test(path))) return undefined;
  return route;
}

/** The methods the API answers on a path, those of its most concrete template (empty for a path it does not have). */
export function methodsOf(routes: ApiRoute[], path: string): string[] {
  const matching = routes.filter((route) => route.pattern.test(path));
  const methods = matching.filter((route) => route.parameters === matching[0].parameters).map((route) => route.method);
  return methods.includes('GET') ? [...methods, 'HEAD'] : methods;
}

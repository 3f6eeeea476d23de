import type { OpenAPIObject } from '@nestjs/swagger';
import { BODY_LIMITS, MAX_LISTED_ERRORS, OPENAPI_EXTENSIONS, PORTAL_SECURITY_SCHEME, PROBLEM_CONTENT_TYPE, problemTitle } from '@trilha/http';

const PROBLEM_SCHEMA = 'Problema';

/** What this file reads and writes of an OpenAPI operation. */
interface Operation {
  responses?: Record<string, ResponseObject>;
  security?: Record<string, string[]>[];
  parameters?: { in?: string }[];
  requestBody?: unknown;
  [extension: string]: unknown;
}

interface ResponseObject {
  description: string;
  content?: Record<string, { schema: unknown }>;
  headers?: Record<string, { description: string; schema: unknown }>;
}

/** RFC 9457 problem document, as every error leaves the API (`libs/platform/http/src/problem.ts`). */
const problemSchema = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail', 'instance'],
  properties: {
    type: { type: 'string', description: 'URI que identifica o tipo do problema.' },
    title: { type: 'string' },
    status: { type: 'integer', minimum: 400, maximum: 599 },
    detail: { type: 'string', description: 'O que houve, em português.' },
    instance: { type: 'string', description: 'O caminho da requisição.' },
    erros: {
      type: 'array',
      description: `Em respostas 400 de validação: os primeiros ${MAX_LISTED_ERRORS} campos inválidos e o porquê.`,
      maxItems: MAX_LISTED_ERRORS,
      items: { type: 'object', required: ['campo', 'mensagem'], properties: { campo: { type: 'string' }, mensagem: { type: 'string' } } },
    },
    totalErros: { type: 'integer', minimum: 1, description: 'Com `erros`: quantos campos inválidos há ao todo.' },
  },
};

const integerHeader = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });

/** Why each status can be answered, as the document says it. */
const WHY: Record<number, string> = {
  400: `Requisição inválida: \`erros\` nomeia os primeiros ${MAX_LISTED_ERRORS} campos e o porquê, \`totalErros\` conta todos. Também um corpo que passa de ${BODY_LIMITS.depth} níveis aninhados, ${BODY_LIMITS.values.toLocaleString('pt-BR')} valores (campos e itens de listas) ou ${BODY_LIMITS.keysPerObject} campos num objeto.`,
  401: 'Token (ou X-Admin-Key) ausente, inválido, expirado ou revogado.',
  403: 'Requisição que não chegou por HTTPS (atrás de um proxy que termina o TLS).',
  404: 'Recurso inexistente ou de outra loja.',
  413: 'Corpo maior que 1 MiB.',
  415: 'Corpo que não é application/json.',
  429: 'Limite de requisições do minuto excedido; repita depois de Retry-After segundos.',
  500: 'Erro interno: informe o X-Request-Id ao suporte.',
  503: 'O serviço que responde a esta rota, ou seu banco de dados, está indisponível no momento.',
  504: 'O serviço que responde a esta rota demorou demais.',
};
/** A forwarded route's 429 also covers the requests a store may have in flight to its service (docs/API.md section 0). */
const TOO_MANY_IN_FLIGHT =
  'Limite de requisições do minuto excedido, ou a loja já tem o limite de requisições simultâneas em andamento no serviço desta rota e a sua fila não a atendeu; repita depois de Retry-After segundos.';

function problemResponse(status: number, description: string): ResponseObject {
  const response: ResponseObject = { description, content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: `#/components/schemas/${PROBLEM_SCHEMA}` } } } };
  if (status === 401) response.headers = { 'WWW-Authenticate': { description: '`Bearer`', schema: { type: 'string' } } };
  if (status === 429) {
    response.headers = {
      'Retry-After': integerHeader('Segundos até poder repetir: até o próximo minuto, quando o limite do minuto recomeça, ou até uma requisição simultânea terminar.'),
      'RateLimit-Limit': integerHeader('Requisições permitidas por minuto.'),
      'RateLimit-Remaining': integerHeader('Requisições que restam no minuto.'),
      'RateLimit-Reset': integerHeader('Segundos até o limite recomeçar.'),
    };
  }
  return response;
}

/** What else an operation that accepts a portal session may answer, and why. */
const WITH_PORTAL_SESSION: Record<number, string> = {
  401: 'Token ou sessão do portal ausente, inválido, expirado, encerrado ou revogado.',
  403: `${WHY[403]} Com a sessão do portal: uma alteração sem o cabeçalho Origin deste endereço, ou feita por uma sessão \`ver\`, que só consulta.`,
};

const forwarded = (operation: Operation) => operation[OPENAPI_EXTENSIONS.service] !== 'api-gateway';
const acceptsPortalSession = (operation: Operation) => (operation.security ?? []).some((requirement) => Object.hasOwn(requirement, PORTAL_SECURITY_SCHEME));

/** Why the operation may answer this status. */
function why(status: number, operation: Operation): string {
  if (status === 429 && forwarded(operation)) return TOO_MANY_IN_FLIGHT;
  if (acceptsPortalSession(operation) && WITH_PORTAL_SESSION[status]) return WITH_PORTAL_SESSION[status];
  return WHY[status] || problemTitle(status);
}

/** The error statuses an operation can answer, from what it is: secured, with path parameters, with a body, forwarded. */
function statusesOf(operation: Operation): number[] {
  const statuses = [400, 403, 429, 500];
  if (operation.security === undefined || operation.security.length > 0) statuses.push(401);
  // Path parameters name resources; operator routes do not exist without an operator key.
  if (operation.parameters?.some((parameter) => parameter.in === 'path') || JSON.stringify(operation.security ?? []).includes('admin-key')) statuses.push(404);
  if (operation.requestBody) statuses.push(413, 415);
  // Every route needs its service's database (503 while it cannot be reached); a forwarded one
  // also its service (503, or 504 when it answers too late).
  statuses.push(503);
  if (forwarded(operation)) statuses.push(504);
  return statuses;
}

/**
 * Documents every answer of every operation: each error status it can give (a problem
 * document, with `erros` on 400, `WWW-Authenticate` on 401, `Retry-After` and the
 * `RateLimit-*` headers on 429), beside the statuses its controller declares. A status the
 * controller declared keeps its description and gets the problem schema.
 */
export function documentEveryAnswer(document: OpenAPIObject): void {
  (document.components!.schemas as Record<string, unknown>)[PROBLEM_SCHEMA] = problemSchema;
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations) as Operation[]) {
      if (typeof operation !== 'object' || !operation.responses) continue;
      for (const status of new Set([...statusesOf(operation), ...Object.keys(operation.responses).map(Number).filter((status) => status >= 400)])) {
        const declared = operation.responses[status];
        operation.responses[status] = problemResponse(status, declared?.description || why(status, operation));
      }
    }
  }
}

/**
 * The public API's operations, read from the OpenAPI document the gateway serves. Both tool
 * servers are built on this: the reference server describes the operations, the operational
 * server calls them, and neither has a copy of the API of its own.
 */

export type JsonSchema = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, RawOperation>>;
  components?: { schemas?: Record<string, JsonSchema>; securitySchemes?: Record<string, unknown> };
}

interface RawParameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

interface RawOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: RawParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: JsonSchema }> }>;
  security?: Record<string, string[]>[];
  [extension: `x-${string}`]: unknown;
}

export interface Parameter {
  name: string;
  in: 'query' | 'path';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface Operation {
  id: string;
  method: string;
  route: string;
  summary: string;
  description?: string;
  tag?: string;
  parameters: Parameter[];
  /** The JSON body's schema, references resolved. */
  body?: { required: boolean; schema: JsonSchema };
  responses: { status: string; description: string; schema?: JsonSchema }[];
  /** What the caller must send: a store token, the operator key, or nothing. */
  authentication: 'token' | 'chave-de-operador' | 'nenhuma';
  limitPerMinute?: number;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** Replaces every `$ref` to `#/components/schemas/X` with the schema itself. */
export function resolveRefs(schema: unknown, document: OpenApiDocument, seen: string[] = []): JsonSchema {
  if (Array.isArray(schema)) return schema.map((item) => resolveRefs(item, document, seen)) as unknown as JsonSchema;
  if (!schema || typeof schema !== 'object') return schema as JsonSchema;
  const ref = (schema as { $ref?: string }).$ref;
  if (ref) {
    const name = ref.replace('#/components/schemas/', '');
    if (seen.includes(name)) return { type: 'object', description: `(recursivo: ${name})` };
    return resolveRefs(document.components?.schemas?.[name] ?? {}, document, [...seen, name]);
  }
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, resolveRefs(value, document, seen)]));
}

function authenticationOf(operation: RawOperation): Operation['authentication'] {
  if (!operation.security) return 'token';
  if (operation.security.length === 0) return 'nenhuma';
  return operation.security.some((requirement) => 'admin-key' in requirement) ? 'chave-de-operador' : 'token';
}

export function listOperations(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [route, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const raw = item[method];
      if (!raw) continue;
      const jsonBody = raw.requestBody?.content?.['application/json']?.schema;
      const limit = raw['x-trilha-limite-por-minuto'];
      operations.push({
        id: raw.operationId ?? `${method}${route}`,
        method: method.toUpperCase(),
        route,
        summary: raw.summary ?? '',
        description: raw.description,
        tag: raw.tags?.[0],
        parameters: (raw.parameters ?? [])
          .filter((parameter): parameter is RawParameter & { in: 'query' | 'path' } => parameter.in === 'query' || parameter.in === 'path')
          .map((parameter) => ({
            name: parameter.name,
            in: parameter.in,
            required: parameter.required ?? parameter.in === 'path',
            description: parameter.description,
            schema: resolveRefs(parameter.schema ?? { type: 'string' }, document),
          })),
        body: jsonBody ? { required: raw.requestBody?.required ?? false, schema: resolveRefs(jsonBody, document) } : undefined,
        responses: Object.entries(raw.responses ?? {}).map(([status, response]) => {
          const schema = response.content?.['application/json']?.schema;
          return { status, description: response.description ?? '', schema: schema && resolveRefs(schema, document) };
        }),
        authentication: authenticationOf(raw),
        limitPerMinute: typeof limit === 'number' ? limit : undefined,
      });
    }
  }
  return operations;
}

export function findOperation(operations: Operation[], method: string, route: string): Operation {
  const found = operations.find((operation) => operation.method === method && operation.route === route);
  if (!found) throw new Error(`the OpenAPI document has no ${method} ${route}`);
  return found;
}

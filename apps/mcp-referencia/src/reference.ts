import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { listOperations, type OpenApiDocument, type Operation } from '@trilha/mcp-openapi-tools';

/** Build artifacts and docs, found from this file's place in dist/ (dist/apps/mcp-referencia/src). */
const ROOT = resolve(__dirname, '../../../..');
export const OPENAPI_FILE = resolve(ROOT, 'dist/openapi.json');
export const PROSE_DIR = resolve(ROOT, 'docs/api');

export interface Reference {
  document: OpenApiDocument & { webhooks?: Record<string, { post: Record<string, unknown> }> };
  operations: Operation[];
  introducao: string;
  webhooks: string;
}

export function loadReference(): Reference {
  const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Reference['document'];
  return {
    document,
    operations: listOperations(document),
    introducao: readFileSync(resolve(PROSE_DIR, 'introducao.md'), 'utf8'),
    webhooks: readFileSync(resolve(PROSE_DIR, 'webhooks.md'), 'utf8'),
  };
}

/** The introduction: the prose, then the per-endpoint limits taken from the document. */
export function introduction(reference: Reference): string {
  const limited = reference.operations.filter((operation) => operation.limitPerMinute !== undefined);
  const lines = limited.map((operation) => `| ${operation.method} ${operation.route} | ${operation.limitPerMinute}/min |`);
  return [reference.introducao.trimEnd(), '', '| Endpoint | Limite |', '|---|---|', ...lines, `| demais endpoints autenticados | 600/min |`, ''].join('\n');
}

/** The webhook reference: the prose, then every notification's payload schema from the document. */
export function webhooksReference(reference: Reference): string {
  const sections = Object.entries(reference.document.webhooks ?? {}).map(([evento, item]) => {
    const body = (item.post.requestBody as { content: Record<string, { schema: { properties: { data: { $ref: string } } } }> }).content['application/json'].schema;
    const name = body.properties.data.$ref.split('/').pop()!;
    const schema = reference.document.components?.schemas?.[name];
    return [`### ${evento}`, String(item.post.summary ?? ''), `Campo do cadastro: \`${String(item.post['x-trilha-flag'])}\`.`, '```json', JSON.stringify(schema, null, 2), '```'].join('\n');
  });
  const endpoints = reference.operations
    .filter((operation) => operation.route.startsWith('/webhook') || operation.route.startsWith('/fila'))
    .map((operation) => `- \`${operation.method} ${operation.route}\` (${operation.id}): ${operation.summary}`);
  return [reference.webhooks.trimEnd(), '', '## Eventos e campos de `data`', '', ...sections, '', '## Endpoints', '', ...endpoints, ''].join('\n');
}

/** One endpoint in full: parameters, body and responses, references resolved. */
export function endpointDetails(operation: Operation): Record<string, unknown> {
  return {
    id: operation.id,
    metodo: operation.method,
    rota: operation.route,
    descricao: operation.summary,
    ...(operation.description && { detalhes: operation.description }),
    autenticacao: operation.authentication,
    ...(operation.limitPerMinute !== undefined && { limitePorMinuto: operation.limitPerMinute }),
    parametros: operation.parameters,
    corpo: operation.body ?? null,
    respostas: operation.responses,
  };
}

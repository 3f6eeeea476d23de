import { serveTools, structured, toolError, type ToolDefinition } from '@trilha/mcp-openapi-tools';
import { endpointDetails, introduction, loadReference, webhooksReference } from './reference';

/**
 * trilha-referencia: describes the Trilha API from the OpenAPI document the gateway serves and
 * the prose of docs/api. No network, no token, nothing modified.
 */
const reference = loadReference();
const noArguments = { type: 'object' as const, properties: {}, additionalProperties: false };

const tools: ToolDefinition[] = [
  {
    tool: {
      name: 'listar_endpoints',
      description: 'Lista todos os endpoints da API Trilha v1: id, método, rota e descrição. Use o id em consultar_endpoint.',
      inputSchema: noArguments,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    run: async () => {
      const endpoints = reference.operations.map((operation) => ({ id: operation.id, metodo: operation.method, rota: operation.route, descricao: operation.summary }));
      return structured({ endpoints }, endpoints.map((e) => `${e.id}: ${e.metodo} ${e.rota} — ${e.descricao}`).join('\n'));
    },
  },
  {
    tool: {
      name: 'consultar_endpoint',
      description: 'Detalha um endpoint pelo id (de listar_endpoints): parâmetros, corpo, respostas, autenticação e limite.',
      inputSchema: { type: 'object', properties: { id: { type: 'string', description: 'Id do endpoint, como listar_endpoints devolve.' } }, required: ['id'], additionalProperties: false },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    run: async (args) => {
      const operation = reference.operations.find((candidate) => candidate.id === args.id);
      if (!operation) return toolError(`Endpoint desconhecido: ${String(args.id)}. Ids válidos: ${reference.operations.map((o) => o.id).join(', ')}.`);
      return structured(endpointDetails(operation));
    },
  },
  {
    tool: {
      name: 'consultar_introducao',
      description: 'Introdução à API: padrões, autenticação, códigos HTTP e limites.',
      inputSchema: noArguments,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    run: async () => {
      const text = introduction(reference);
      return structured({ introducao: text }, text);
    },
  },
  {
    tool: {
      name: 'consultar_webhooks',
      description: 'Referência das notificações: formato, campos de cada evento, assinatura, novas tentativas e fila.',
      inputSchema: noArguments,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    run: async () => {
      const text = webhooksReference(reference);
      return structured({ webhooks: text }, text);
    },
  },
];

serveTools(
  'trilha-referencia',
  '1.0.0',
  'Referência da API Trilha v1. Comece por consultar_introducao e listar_endpoints.',
  tools,
).catch((error: Error) => {
  process.stderr.write(`trilha-referencia: ${error.stack}\n`);
  process.exit(1);
});

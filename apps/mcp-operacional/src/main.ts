import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { findOperation, listOperations, serveTools, toHttpCall, toolInputSchema, type OpenApiDocument, type ToolDefinition } from '@trilha/mcp-openapi-tools';
import { callApi } from './api-client';

/**
 * trilha-operacional: operates a store through the Trilha API with its token (TRILHA_TOKEN) at
 * TRILHA_BASE_URL. Each tool is one endpoint; its input schema is the endpoint's parameters and
 * body fields, taken from the same OpenAPI document the gateway serves.
 */
const TOOLS: { name: string; method: string; route: string; description: string }[] = [
  { name: 'criar_pedido', method: 'PUT', route: '/pedido', description: 'Cria ou atualiza (upsert por numeroPedido + tipoPedido) um pedido da loja. Devolve o pedido, com idPedido e linkRastreio.' },
  { name: 'consultar_pedido', method: 'GET', route: '/pedido', description: 'Lê um pedido por chave (idPedido, numeroPedido ou pedidoCanal) e valor.' },
  { name: 'listar_pedidos', method: 'GET', route: '/pedidos', description: 'Lista os pedidos da loja, mais recentes primeiro, com paginação (pagina, porPagina) e filtros (tipoPedido, situacao, dataInicio, dataFim).' },
  { name: 'consultar_fila', method: 'GET', route: '/fila/lista', description: 'Lê os eventos pendentes na fila da loja (mais antigos primeiro). Não remove nada.' },
  { name: 'remover_evento_fila', method: 'DELETE', route: '/fila/delete', description: 'Remove da fila um evento já processado, pelo idDocumento (parâmetro codigo).' },
  { name: 'listar_agentes', method: 'GET', route: '/agentes', description: 'Lista os agentes virtuais de atendimento da loja.' },
  { name: 'conversar_agente', method: 'POST', route: '/agentes/{idAgente}/conversar', description: 'Envia uma mensagem a um agente virtual e recebe a resposta (com idConversa para continuar a conversa).' },
  { name: 'cadastrar_webhook', method: 'POST', route: '/webhook/novo', description: 'Cadastra (ou substitui) a URL https que recebe as notificações da loja e escolhe os eventos. Devolve o segredo da assinatura.' },
];

const settings = {
  baseUrl: (process.env.TRILHA_BASE_URL ?? 'https://localhost:8443/v1').replace(/\/$/, ''),
  token: process.env.TRILHA_TOKEN || undefined,
};
if (!settings.token) process.stderr.write('trilha-operacional: TRILHA_TOKEN is not set; every tool will say how to set it\n');

const document = JSON.parse(readFileSync(resolve(__dirname, '../../../openapi.json'), 'utf8')) as OpenApiDocument;
const operations = listOperations(document);

const tools: ToolDefinition[] = TOOLS.map((definition) => {
  const operation = findOperation(operations, definition.method, definition.route);
  const readOnly = definition.method === 'GET';
  return {
    tool: {
      name: definition.name,
      description: `${definition.description} (${definition.method} ${definition.route})`,
      inputSchema: toolInputSchema(operation) as { type: 'object' },
      annotations: { readOnlyHint: readOnly, destructiveHint: definition.method === 'DELETE', openWorldHint: true },
    },
    run: (args) => callApi(settings, toHttpCall(operation, args)),
  };
});

serveTools('trilha-operacional', '1.0.0', `Opera a loja na API Trilha (${settings.baseUrl}) com o token em TRILHA_TOKEN.`, tools).catch((error: Error) => {
  process.stderr.write(`trilha-operacional: ${error.stack}\n`);
  process.exit(1);
});

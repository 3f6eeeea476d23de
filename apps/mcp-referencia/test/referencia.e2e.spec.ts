import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { apiClient, connectToolServer, testStack } from '@trilha/testing';

const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);

type ToolText = { content: { type: string; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

describe('trilha-referencia over stdio', () => {
  let client: Client;
  let stderr: () => string;

  beforeAll(async () => {
    ({ client, stderr } = await connectToolServer('trilha-mcp-referencia'));
  });

  afterAll(async () => {
    await client.close();
  });

  it('is trilha-referencia 1.0.0 with exactly the four tools of docs/API.md section 9', async () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'trilha-referencia', version: '1.0.0' });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['consultar_endpoint', 'consultar_introducao', 'consultar_webhooks', 'listar_endpoints']);
  });

  it('lists exactly the endpoints of the OpenAPI document the gateway serves', async () => {
    const served = (await api('GET', '/openapi.json')).body as { paths: Record<string, Record<string, { operationId: string; summary: string }>> };
    const expected = Object.entries(served.paths).flatMap(([route, operations]) =>
      Object.entries(operations).map(([method, operation]) => ({ id: operation.operationId, metodo: method.toUpperCase(), rota: route, descricao: operation.summary })),
    );
    const result = (await client.callTool({ name: 'listar_endpoints', arguments: {} })) as ToolText;
    expect(result.isError).toBeFalsy();
    const listed = (result.structuredContent as { endpoints: unknown[] }).endpoints;
    expect(listed).toEqual(expect.arrayContaining(expected));
    expect(listed).toHaveLength(expected.length);
  });

  it('details every endpoint, and names the valid ids for an unknown one', async () => {
    const { endpoints } = ((await client.callTool({ name: 'listar_endpoints', arguments: {} })) as ToolText).structuredContent as { endpoints: { id: string; rota: string }[] };
    for (const endpoint of endpoints) {
      const details = (await client.callTool({ name: 'consultar_endpoint', arguments: { id: endpoint.id } })) as ToolText;
      expect(details.isError).toBeFalsy();
      expect(details.structuredContent).toMatchObject({ id: endpoint.id, rota: endpoint.rota, parametros: expect.any(Array), respostas: expect.any(Array) });
    }
    const criar = ((await client.callTool({ name: 'consultar_endpoint', arguments: { id: 'criarLoja' } })) as ToolText).structuredContent;
    expect(criar).toMatchObject({ autenticacao: 'chave-de-operador', corpo: { schema: { properties: { nome: { type: 'string', maxLength: 150 } } } } });
    const unknown = (await client.callTool({ name: 'consultar_endpoint', arguments: { id: 'nao-existe' } })) as ToolText;
    expect(unknown.isError).toBe(true);
    expect(unknown.content[0].text).toContain('Endpoint desconhecido: nao-existe');
    expect(unknown.content[0].text).toContain('criarLoja');
  });

  it('explains standards, authentication, HTTP codes and limits', async () => {
    const { content } = (await client.callTool({ name: 'consultar_introducao', arguments: {} })) as ToolText;
    for (const topic of ['HTTPS', 'Authorization: Bearer', 'GET /autenticacao/{codigo}', '429', 'Retry-After', '600/min', 'application/problem+json']) {
      expect(content[0].text).toContain(topic);
    }
  });

  it('documents every notification with its payload fields, the signature, retries and the queue', async () => {
    const { content } = (await client.callTool({ name: 'consultar_webhooks', arguments: {} })) as ToolText;
    const text = content[0].text;
    for (const evento of ['atendimento.criado', 'atendimento.mensagem', 'atendimento.encerrado', 'aplicativo.removido']) expect(text).toContain(`### ${evento}`);
    for (const field of ['dataAbertura', 'dadosCliente', 'remetente', 'dataEncerramento', 'resumo', 'dataRemocao']) expect(text).toContain(`"${field}"`);
    for (const topic of ['webhook-signature', 'HMAC-SHA256', 'whsec_', '10 s', 'novas tentativas', '/fila/lista', '/fila/delete']) expect(text).toContain(topic);
    for (const topic of ['410 Gone', 'webhook.desativado', 'taxaSucesso24h', 'POST /webhook/ativar', 'POST /webhook/segredo/rotacionar', 'POST /webhook/entregas/recuperar']) {
      expect(text).toContain(topic);
    }
  });

  it('writes nothing but protocol to stdout and no errors to stderr', () => {
    // A stray line on stdout would have broken the JSON-RPC exchange above.
    expect(stderr()).toBe('');
  });
});

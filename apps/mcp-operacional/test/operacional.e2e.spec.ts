import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { apiClient, connectToolServer, createStore, eventually, testStack, type TestStore } from '@trilha/testing';

const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);
const admin = { 'x-admin-key': stack.adminApiKey };

type ToolResult = { content: { type: string; text: string }[]; structuredContent?: Record<string, any>; isError?: boolean }; // eslint-disable-line @typescript-eslint/no-explicit-any

const TOOLS = ['cadastrar_webhook', 'consultar_fila', 'consultar_pedido', 'conversar_agente', 'criar_pedido', 'listar_agentes', 'listar_pedidos', 'remover_evento_fila'];

const operacional = (token?: string) =>
  connectToolServer('trilha-mcp-operacional', {
    TRILHA_BASE_URL: stack.baseUrl,
    NODE_EXTRA_CA_CERTS: stack.caFile,
    ...(token && { TRILHA_TOKEN: token }),
  });

const call = (client: Client, name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args }) as Promise<ToolResult>;

describe('trilha-operacional over stdio, against the running stack', () => {
  let loja: TestStore;
  let client: Client;
  let stderr: () => string;

  beforeAll(async () => {
    loja = await createStore('Loja MCP');
    ({ client, stderr } = await operacional(loja.token));
  });

  afterAll(async () => {
    await client.close();
  });

  it('offers exactly the eight tools of docs/API.md section 9, each with an input schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
    const criar = tools.find((tool) => tool.name === 'criar_pedido')!;
    expect(criar.inputSchema).toMatchObject({ type: 'object', properties: { numeroPedido: { type: 'string' }, itens: { type: 'array' } } });
    expect(criar.inputSchema.required).toEqual(expect.arrayContaining(['numeroPedido', 'cliente', 'itens', 'valorTotal', 'dataPedido']));
    const conversar = tools.find((tool) => tool.name === 'conversar_agente')!;
    expect(conversar.inputSchema.required).toEqual(expect.arrayContaining(['idAgente', 'mensagem']));
  });

  it('creates an order through criar_pedido that the API then reads, and finds it with the query tools', async () => {
    const created = await call(client, 'criar_pedido', {
      numeroPedido: 'MCP-1001',
      situacao: 'aprovado',
      cliente: { nome: 'Ana Souza', email: 'ana@example.com' },
      itens: [{ sku: 'CAM-AZ-M', descricao: 'Camiseta azul M', quantidade: 2, valorUnitario: 49.9 }],
      valorTotal: 99.8,
      dataPedido: '2026-11-20T10:00:00-03:00',
    });
    expect(created.isError).toBeFalsy();
    const idPedido = created.structuredContent!.idPedido as string;
    expect(created.structuredContent).toMatchObject({ numeroPedido: 'MCP-1001', situacao: 'aprovado', linkRastreio: expect.stringContaining('/rastreio/') });

    const viaApi = await api('GET', `/pedido?chave=idPedido&valor=${idPedido}`, { token: loja.token });
    expect(viaApi.status).toBe(200);
    expect(viaApi.body).toMatchObject({ idPedido, numeroPedido: 'MCP-1001', valorTotal: 99.8 });

    const consulted = await call(client, 'consultar_pedido', { chave: 'numeroPedido', valor: 'MCP-1001' });
    expect(consulted.structuredContent).toMatchObject({ idPedido });
    const listed = await call(client, 'listar_pedidos', { pagina: 1, porPagina: 10 });
    expect(listed.structuredContent).toMatchObject({ pagina: 1, porPagina: 10, total: 1, pedidos: [expect.objectContaining({ idPedido })] });
  });

  it('lists the store’s agents and talks to the built-in one', async () => {
    const listed = await call(client, 'listar_agentes');
    const agente = (listed.structuredContent!.agentes as { idAgente: string; nome: string }[]).find((candidate) => candidate.nome === 'Assistente de rastreio')!;
    const reply = await call(client, 'conversar_agente', { idAgente: agente.idAgente, mensagem: 'Onde está o meu pedido MCP-1001?' });
    expect(reply.isError).toBeFalsy();
    expect(reply.structuredContent).toMatchObject({ idConversa: expect.any(String), resposta: expect.any(String), intencao: expect.any(String) });
  });

  it('reads the queue and removes an event from it, as GET /fila/lista then shows', async () => {
    // No webhook registered: the app removal goes to the store's queue.
    expect((await api('POST', `/admin/lojas/${loja.idLoja}/aplicativo/remover`, { headers: admin })).status).toBe(202);
    const queued = await eventually('the event in the queue', async () => {
      const result = await call(client, 'consultar_fila', { limite: 50 });
      return (result.structuredContent?.total as number) > 0 ? result : undefined;
    });
    const [evento] = queued.structuredContent!.eventos as { idDocumento: string; evento: string }[];
    expect(evento.evento).toBe('aplicativo.removido');

    const removed = await call(client, 'remover_evento_fila', { codigo: evento.idDocumento });
    expect(removed.structuredContent).toEqual({ idDocumento: evento.idDocumento, removido: true });
    const after = await api('GET', '/fila/lista', { token: loja.token });
    expect(after.body.eventos.map((item: { idDocumento: string }) => item.idDocumento)).not.toContain(evento.idDocumento);

    const again = await call(client, 'remover_evento_fila', { codigo: evento.idDocumento });
    expect(again.isError).toBe(true);
    expect(again.content[0].text).toMatch(/^404/);
  });

  it('turns API problems into tool errors carrying their detail', async () => {
    const webhook = await call(client, 'cadastrar_webhook', { url: 'http://example.com/webhook' });
    expect(webhook.isError).toBe(true);
    expect(webhook.content[0].text).toMatch(/^400 /);
    expect(webhook.content[0].text).toMatch(/https/);

    const invalid = await call(client, 'criar_pedido', { numeroPedido: 'x', cliente: { nome: 'Ana' }, itens: [], valorTotal: -1, dataPedido: 'ontem' });
    expect(invalid.isError).toBe(true);
    expect(invalid.content[0].text).toMatch(/valorTotal/);
    expect(invalid.content[0].text).toMatch(/dataPedido/);
  });

  it('writes nothing but protocol to stdout', () => {
    expect(stderr()).not.toMatch(/Error|failed/);
  });
});

describe('trilha-operacional without a usable token', () => {
  it('starts without a token, and every tool says how to set one', async () => {
    const { client } = await operacional();
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(8);
      for (const tool of tools) {
        const result = await call(client, tool.name, {});
        expect(result.isError).toBe(true);
        expect(result.content[0].text).toContain('TRILHA_TOKEN');
      }
    } finally {
      await client.close();
    }
  });

  it('says the token was refused when it is invalid or expired', async () => {
    const { client } = await operacional('token-que-nao-vale');
    try {
      const result = await call(client, 'listar_pedidos');
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toMatch(/^401 /);
      expect(result.content[0].text).toContain('TRILHA_TOKEN');
    } finally {
      await client.close();
    }
  });
});

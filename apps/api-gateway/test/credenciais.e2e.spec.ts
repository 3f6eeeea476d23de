import { randomBytes } from 'node:crypto';
import {
  apiClient, clientAddress, createStore, eventually, serviceLogs, testStack, uniqueId, WebhookReceiver, zipkinTrace, type ApiResponse, type TestStore,
} from '@trilha/testing';

const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);
const admin = { 'x-admin-key': stack.adminApiKey };
const receiver = WebhookReceiver.forTestFile(stack);
const SERVICES = ['api-gateway', 'tracking-service', 'atendimento-service', 'delivery-service'];

describe('credentials in a URL (the account code, the tracking page token) stay out of logs and spans', () => {
  const traceId = randomBytes(16).toString('hex');
  const traced = (requestId: string) => ({ ...clientAddress(), 'x-request-id': requestId, traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` });
  let loja: TestStore;
  let pageToken: string;
  const sent: { requestId: string; service: string; shown: string }[] = [];

  /** Sends a request in the test's trace and remembers the URL its log lines should show. */
  async function send(method: string, url: string, status: number, shown: string, service = 'api-gateway'): Promise<void> {
    const requestId = `credencial-${uniqueId()}`;
    expect((await api(method, url, { headers: traced(requestId) })).status).toBe(status);
    sent.push({ requestId, service, shown });
  }

  beforeAll(async () => {
    loja = await createStore('Loja Credenciais');
    const evento = await api('POST', '/pedidoRastreio/evento', {
      token: loja.token,
      body: { numeroPedido: `P-${uniqueId()}`, codigoRastreio: 'BR123456789BR', dataHora: '2026-11-20T09:15:00-03:00', descricao: 'Postado' },
    });
    expect(evento.status).toBe(201);
    const [origin, token] = (evento.body.linkRastreio as string).split('/rastreio/');
    pageToken = token;

    // %-encoded paths the router decodes and serves, or refuses: none may show the credential.
    await send('GET', `/autentica%63ao/${loja.codigo}`, 200, '/v1/autenticacao/…');
    await send('POST', `/autentica%63ao/${loja.codigo}`, 404, '/v1/autenticacao/…');
    await send('POST', `/autenticacao/${loja.codigo}`, 405, '/v1/autenticacao/…');
    await send('GET', `/autenticacao/${loja.codigo}/`, 404, '/v1/autenticacao/…');
    await send('GET', `${origin}/ra%73treio/${pageToken}`, 200, '/rastreio/…');
    sent.push({ ...sent[sent.length - 1], service: 'tracking-service' });
  }, 60_000);

  it('logs each request with the route and … in place of the credential, in no log line of any service', async () => {
    for (const { requestId, service, shown } of sent) {
      const line = await eventually(`${service}'s log line of ${requestId}`, () =>
        serviceLogs(stack.dataDir, service).find((entry) => entry.correlationId === requestId && entry.msg === 'request completed'));
      expect((line.req as { url: string }).url).toBe(shown);
    }
    for (const service of SERVICES) {
      expect(serviceLogs(stack.dataDir, service).filter((entry) => JSON.stringify(entry).includes(loja.codigo) || JSON.stringify(entry).includes(pageToken))).toEqual([]);
    }
  });

  it('shows no credential in any span of the trace in Zipkin', async () => {
    // A server span per request at the gateway, the page's at the tracking service, and the forwarding's client span.
    const spans = await eventually(`the spans of trace ${traceId} in Zipkin`, async () => {
      const found = await zipkinTrace(stack, traceId);
      return found.filter((span) => span.kind === 'SERVER').length >= sent.length && found.some((span) => span.kind === 'CLIENT') ? found : undefined;
    });
    expect(spans.filter((span) => JSON.stringify(span).includes(loja.codigo) || JSON.stringify(span).includes(pageToken))).toEqual([]);
    const paths = spans.map((span) => span.tags['url.path']).filter(Boolean);
    expect(new Set(paths)).toEqual(new Set(['/v1/autenticacao/…', '/rastreio/…']));
    expect(spans.find((span) => span.kind === 'CLIENT')?.tags['url.full']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/rastreio\/…$/);
  });
});

describe('answers that carry a credential are not cached (Cache-Control: no-store)', () => {
  /** Fields whose value is a credential: a store token, an account code, a webhook secret, a tracking link (its page token). */
  const CREDENTIAL_FIELDS = ['token', 'codigo', 'segredo', 'linkRastreio'];
  const checked = new Set<string>();

  /** Expects a successful answer with `Cache-Control: no-store`, and records its operation. */
  function expectNoStore(operation: string, response: ApiResponse, status: number): ApiResponse {
    expect({ operation, status: response.status, cacheControl: response.headers['cache-control'] }).toEqual({ operation, status, cacheControl: 'no-store' });
    checked.add(operation);
    return response;
  }

  it('sets it on every answer of the API whose body has a credential field', async () => {
    const criada = expectNoStore('POST /admin/lojas', await api('POST', '/admin/lojas', { headers: admin, body: { nome: 'Loja Sem Cache' } }), 201);
    expectNoStore('POST /admin/lojas/{idLoja}/codigo/rotacionar', await api('POST', `/admin/lojas/${criada.body.idLoja}/codigo/rotacionar`, { headers: admin }), 200);
    const loja = await createStore('Loja Sem Cache 2');
    const token = loja.token;
    expectNoStore('GET /autenticacao/{codigo}', await api('GET', `/autenticacao/${loja.codigo}`, { headers: clientAddress() }), 200);

    expectNoStore('POST /webhook/novo', await api('POST', '/webhook/novo', { token, body: { url: receiver.url('/sem-cache') } }), 201);
    expectNoStore('POST /webhook/segredo/rotacionar', await api('POST', '/webhook/segredo/rotacionar', { token }), 200);

    const numeroPedido = `P-${uniqueId()}`;
    const pedido = {
      numeroPedido,
      situacao: 'aprovado',
      cliente: { nome: 'Ana Souza' },
      itens: [{ sku: 'CAM-AZ-M', descricao: 'Camiseta azul M', quantidade: 1, valorUnitario: 49.9 }],
      valorTotal: 49.9,
      dataPedido: '2026-11-20T09:00:00-03:00',
    };
    expectNoStore('PUT /pedido', await api('PUT', '/pedido', { token, body: pedido }), 201);
    expectNoStore('PUT /pedido', await api('PUT', '/pedido', { token, body: { ...pedido, situacao: 'enviado' } }), 200);
    expectNoStore('GET /pedido', await api('GET', `/pedido?chave=numeroPedido&valor=${numeroPedido}`, { token }), 200);
    expectNoStore('GET /pedidos', await api('GET', '/pedidos', { token }), 200);
    const evento = { numeroPedido, codigoRastreio: 'BR987654321BR', dataHora: '2026-11-20T09:15:00-03:00', descricao: 'Postado' };
    expectNoStore('POST /pedidoRastreio/evento', await api('POST', '/pedidoRastreio/evento', { token, body: evento }), 201);
    expectNoStore('GET /pedidoRastreio', await api('GET', `/pedidoRastreio?chave=numeroPedido&valor=${numeroPedido}`, { token }), 200);
    expectNoStore('POST /agentes/{idAgente}/conversar', await api('POST', `/agentes/rastreio-${loja.idLoja}/conversar`, { token, body: { mensagem: `Onde está o pedido ${numeroPedido}?` } }), 200);

    // Every such operation of the OpenAPI document, so a new one cannot go unchecked.
    const document = (await api('GET', '/openapi.json')).body;
    expect([...checked].sort()).toEqual(operationsAnswering(document, CREDENTIAL_FIELDS).sort());
  });

  it('leaves an answer without a credential as it was', async () => {
    const loja = await createStore('Loja Sem Cache 3');
    const eu = await api('GET', '/loja', { token: loja.token });
    expect(eu.status).toBe(200);
    expect(eu.headers['cache-control']).toBeUndefined();
  });
});

type Schema = { $ref?: string; properties?: Record<string, Schema>; items?: Schema; allOf?: Schema[]; oneOf?: Schema[]; anyOf?: Schema[] };
type Document = { paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> }>>; components: { schemas: Record<string, Schema> } };

/** The operations (`METHOD /path`) with a 2xx answer whose body has one of `fields`, at any depth. */
function operationsAnswering(document: Document, fields: string[]): string[] {
  const has = (schema: Schema | undefined, seen: Set<string>): boolean => {
    if (!schema) return false;
    if (schema.$ref) {
      const name = schema.$ref.split('/').pop() as string;
      if (seen.has(name)) return false;
      seen.add(name);
      return has(document.components.schemas[name], seen);
    }
    return Object.keys(schema.properties ?? {}).some((name) => fields.includes(name)) ||
      [...Object.values(schema.properties ?? {}), schema.items, ...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])].some((part) => has(part, seen));
  };
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([, operation]) => Object.entries(operation.responses ?? {}).some(([status, response]) =>
        status.startsWith('2') && Object.values(response.content ?? {}).some((content) => has(content.schema, new Set()))))
      .map(([method]) => `${method.toUpperCase()} ${path}`));
}

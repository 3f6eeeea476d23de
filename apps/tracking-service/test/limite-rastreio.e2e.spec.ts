import { apiClient, createStore, startReplica, testStack, type Replica } from '@trilha/testing';

const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);

describe('GET /pedidoRastreio: 120 requests per minute per store, shared by every gateway replica', () => {
  const replicaPort = stack.ports.gateway + 8;
  let replica: Replica;

  beforeAll(async () => {
    replica = await startReplica(stack, 'api-gateway', 'api-gateway-replica-rastreio', {
      PUBLIC_PORT: String(replicaPort),
      OPS_PORT: String(stack.ports.ops['api-gateway'] + 21),
      INSTANCE_ID: 'e2e-replica-rastreio',
    });
  }, 90_000);

  afterAll(() => replica?.stop());

  it('answers the 121st request of a minute with 429 and a Retry-After to the next minute, counting both replicas', async () => {
    const { token } = await createStore('Loja Limite');
    const registered = await api('POST', '/pedidoRastreio/evento', {
      token, body: { numeroPedido: 'LIMITE-1', codigoRastreio: 'BR1', dataHora: '2026-11-21T10:00:00Z', descricao: 'Postado' },
    });
    expect(registered.status).toBe(201);
    const path = '/pedidoRastreio?chave=numeroPedido&valor=LIMITE-1';
    const onReplica = () => api('GET', `https://localhost:${replicaPort}/v1${path}`, { token });
    const onMain = () => api('GET', path, { token });

    // The 121 requests must fall in one calendar minute.
    const msIntoMinute = Date.now() % 60_000;
    if (msIntoMinute > 40_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - msIntoMinute + 200));
    const minute = Math.floor(Date.now() / 60_000);

    const answers = [];
    for (let index = 0; index < 120; index += 1) answers.push(await (index % 2 ? onReplica() : onMain()));
    expect(answers.map((answer) => answer.status)).toEqual(Array(120).fill(200));
    expect(answers[0].headers['ratelimit-limit']).toBe('120');
    expect(answers[119].headers['ratelimit-remaining']).toBe('0');

    const refused = await onReplica();
    expect(Math.floor(Date.now() / 60_000)).toBe(minute);
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    const expected = Math.ceil((60_000 - (Date.now() % 60_000)) / 1000);
    expect(Math.abs(Number(refused.headers['retry-after']) - expected)).toBeLessThanOrEqual(1);
    expect(refused.headers['ratelimit-limit']).toBe('120');
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect((await onMain()).status).toBe(429);

    // The limit is the tracking endpoint's own: the store's other endpoints still answer.
    expect((await api('GET', '/pedidos', { token })).status).toBe(200);
  }, 120_000);
});

import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import { apiClient, clientAddress, createStore, eventually, expectInvalid, expectProblem, serviceLogs, startReplica, testStack } from '@trilha/testing';

const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);
const admin = { 'x-admin-key': stack.adminApiKey };

describe('conventions (docs/API.md section 0)', () => {
  it('echoes the caller’s X-Request-Id, or gives one', async () => {
    const given = await api('GET', '/openapi.json', { headers: { 'x-request-id': 'pedido-123' } });
    expect(given.headers['x-request-id']).toBe('pedido-123');
    const generated = await api('GET', '/nao-existe');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(generated.status).toBe(404);
    expect(generated.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('answers every request with HSTS and nosniff, and unknown paths in Portuguese', async () => {
    for (const url of [`${stack.baseUrl}/openapi.json`, `${stack.baseUrl}/nao-existe`, stack.baseUrl.replace(/\/v1$/, '/fora-da-api')]) {
      const response = await api('GET', url);
      expect(response.headers).toMatchObject({ 'strict-transport-security': 'max-age=31536000; includeSubDomains', 'x-content-type-options': 'nosniff' });
    }
    const fora = await api('GET', stack.baseUrl.replace(/\/v1$/, '/fora-da-api'));
    expectProblem(fora, 404);
    expect(fora.body.detail).toBe('Rota não encontrada: GET /fora-da-api.');
  });

  it('answers a URL with a broken %-escape with a problem in Portuguese and the same headers', async () => {
    const ilegivel = await api('GET', `${stack.baseUrl}/pedido/%zz`);
    expectProblem(ilegivel, 400);
    expect(ilegivel.body).toMatchObject({ detail: 'O endereço pedido não pode ser lido: um escape % não forma um caractere.', instance: '/v1/pedido/%zz' });
    expect(ilegivel.headers).toMatchObject({ 'strict-transport-security': 'max-age=31536000; includeSubDomains', 'x-content-type-options': 'nosniff', 'x-request-id': expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });

  it('takes the Bearer scheme in any case, and says what is wrong with a field in Portuguese', async () => {
    const loja = await createStore();
    expect((await api('GET', '/loja', { headers: { authorization: `bearer ${loja.token}` } })).status).toBe(200);
    expect((await api('GET', '/loja', { headers: { authorization: `BEARER ${loja.token}` } })).status).toBe(200);
    const limite = await api('GET', '/fila/lista?limite=0', { token: loja.token });
    expectInvalid(limite, 'limite');
    expect(limite.body.erros).toEqual([{ campo: 'limite', mensagem: 'limite deve ser no mínimo 1' }]);
    const desconhecido = await api('POST', '/atendimentos', { token: loja.token, body: { canal: 'chat', tipo: 'duvida', dadosCliente: { nome: 'Ana' }, x: 1 } });
    expect(desconhecido.body.erros).toEqual([{ campo: 'x', mensagem: 'x não é um campo aceito' }]);
  });

  it('refuses texts no store data can hold and offsets beyond ±14:00 with a 400 naming the field', async () => {
    const loja = await createStore();
    const nulo = await api('POST', '/atendimentos', { token: loja.token, body: { canal: 'chat', tipo: 'duvida', dadosCliente: { nome: 'A\u0000na' } } });
    expect(nulo.body.erros).toEqual([{ campo: 'dadosCliente.nome', mensagem: expect.stringMatching(/U\+0000/) }]);
    const metade = await api('POST', '/pedidoRastreio/evento', { token: loja.token, body: { numeroPedido: 'P-\ud800', codigoRastreio: 'BR1', dataHora: '2026-11-21T10:00:00Z', descricao: 'x' } });
    expect(metade.body.erros).toEqual([{ campo: 'numeroPedido', mensagem: expect.stringMatching(/surrogate/) }]);
    expectInvalid(await api('GET', `/pedido?chave=idPedido&valor=${encodeURIComponent('a\u0000b')}`, { token: loja.token }), 'valor');
    expectInvalid(await api('GET', `/pedidos?dataFim=${encodeURIComponent('2000-01-01T10:49:49+23:21')}`, { token: loja.token }), 'dataFim');
    expect((await api('GET', `/pedidos?dataFim=${encodeURIComponent('2000-01-01T10:49:49+14:00')}`, { token: loja.token })).status).toBe(200);
  });

  it('speaks TLS only on the public port', async () => {
    const plain = new Promise((resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port: stack.ports.gateway, path: '/v1/openapi.json' }, (response) => resolve(response.statusCode));
      request.on('error', reject);
      request.end();
    });
    // The TLS listener answers plain HTTP with a TLS-level 400 or hangs up; never with the API.
    const outcome = await plain.then((status) => status, (error: Error) => error.message);
    expect(outcome).not.toBe(200);
  });

  it('serves the OpenAPI 3.1 document and its rendering without a token', async () => {
    const document = await api('GET', '/openapi.json');
    expect(document.status).toBe(200);
    expect(document.body.openapi).toBe('3.1.0');
    expect(Object.keys(document.body.paths)).toEqual(expect.arrayContaining([
      '/admin/lojas', '/admin/lojas/{idLoja}/desativar', '/admin/lojas/{idLoja}/ativar',
      '/admin/lojas/{idLoja}/aplicativo/remover', '/autenticacao/{codigo}',
    ]));
    const docs = await api('GET', '/docs');
    expect(docs.status).toBe(200);
    expect(docs.text).toMatch(/swagger-ui/i);
  });

  it('limits per calendar minute with RateLimit headers and a Retry-After to the next minute', async () => {
    // GET /autenticacao/{codigo}: 30/min per client address. Start early in a minute so the
    // 31 requests fall in one window.
    const msIntoMinute = Date.now() % 60_000;
    if (msIntoMinute > 45_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - msIntoMinute + 100));
    const client = clientAddress();
    const statuses: number[] = [];
    let last;
    for (let index = 0; index < 31; index += 1) {
      last = await api('GET', `/autenticacao/${randomBytes(8).toString('hex')}`, { headers: client });
      statuses.push(last.status);
      expect(last.headers['ratelimit-limit']).toBe('30');
    }
    expect(statuses.slice(0, 30).every((status) => status === 401)).toBe(true);
    expect(last!.status).toBe(429);
    expect(last!.headers['content-type']).toMatch(/^application\/problem\+json/);
    const expected = Math.ceil((60_000 - (Date.now() % 60_000)) / 1000);
    expect(Math.abs(Number(last!.headers['retry-after']) - expected)).toBeLessThanOrEqual(1);
    expect(last!.headers['ratelimit-remaining']).toBe('0');
  });
});

describe('operations (docs/API.md section 10)', () => {
  it.each(Object.entries(stack.ports.ops))('%s serves /healthz, /readyz and /metrics on its internal port', async (service, port) => {
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status).toBe(200);
    // The tracking service consumes no topic.
    const consumes = service !== 'tracking-service';
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', kafka: 'ok', ...(consumes && { consumer: 'ok' }) } });
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(metrics).toMatch(/process_cpu_seconds_total/);
    expect(metrics).toMatch(/^trilha_kafka_connected 1$/m);
    if (consumes) expect(metrics).toMatch(/^trilha_kafka_consumer_running 1$/m);
  });

  it('keeps them off the public port', async () => {
    for (const path of ['/healthz', '/readyz', '/metrics', '/v1/healthz']) {
      expect((await api('GET', `https://localhost:${stack.ports.gateway}${path}`)).status).toBe(404);
    }
  });
});

describe('the services’ internal ports (docs/ARCHITECTURE.md, From the gateway to the services)', () => {
  const ROTAS: Record<string, string> = { 'tracking-service': '/v1/pedidos', 'atendimento-service': '/v1/agentes', 'delivery-service': '/v1/webhook' };

  it.each(Object.entries(stack.ports.internal))('%s answers only a caller holding the internal token and naming a store', async (service, port) => {
    const loja = String((await createStore(`Porta interna de ${service}`)).idLoja);
    const token = stack.env[service].INTERNAL_API_TOKEN;
    const status = async (headers: Record<string, string>) => (await fetch(`http://127.0.0.1:${port}${ROTAS[service]}`, { headers })).status;
    const mesmoTamanho = [...token].map((char) => (char === 'a' ? 'b' : 'a')).join('');
    expect(await status({ 'x-trilha-loja': loja })).toBe(401);
    for (const errado of [mesmoTamanho, token.slice(1), `${token}a`]) expect(await status({ 'x-trilha-internal-token': errado, 'x-trilha-loja': loja })).toBe(401);
    expect(await status({ 'x-trilha-internal-token': token })).toBe(401);
    expect(await status({ 'x-trilha-internal-token': token, 'x-trilha-loja': loja })).not.toBe(401);
  });
});

describe('one event followed from the HTTP request, through Kafka, into another service', () => {
  it('carries the caller’s trace id into the delivery service’s logs and read model', async () => {
    const traceId = randomBytes(16).toString('hex');
    const requestId = `trace-e2e-${traceId.slice(0, 8)}`;
    const created = await api('POST', '/admin/lojas', {
      headers: { ...admin, traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`, 'x-request-id': requestId },
      body: { nome: 'Loja Rastreada' },
    });
    expect(created.status).toBe(201);

    const gatewayLine = await eventually('the gateway logging the request', () =>
      serviceLogs(stack.dataDir, 'api-gateway').find((line) => line.traceId === traceId && line.msg === 'request completed'));
    expect(gatewayLine).toMatchObject({ correlationId: requestId, service: 'api-gateway' });

    const consumerLine = await eventually('the delivery service handling loja.criada', () =>
      serviceLogs(stack.dataDir, 'delivery-service').find((line) => line.traceId === traceId && line.msg === 'handled loja.criada'));
    expect(consumerLine).toMatchObject({ correlationId: requestId, idLoja: created.body.idLoja, service: 'delivery-service' });
  });
});

describe('configuration', () => {
  it('stops a service started with a missing or invalid setting, naming it', () => {
    const env = { ...process.env, ...stack.env['api-gateway'], KAFKA_BROKERS: 'no-port', TOKEN_SIGNING_SECRET: '' };
    delete (env as Record<string, string | undefined>).DATABASE_URL;
    const run = spawnSync(process.execPath, [join(__dirname, '../../../dist/apps/api-gateway/src/main.js')], { env, encoding: 'utf8', timeout: 20_000 });
    expect(run.status).toBe(78);
    expect(run.stderr).toMatch(/DATABASE_URL \(missing\)/);
    expect(run.stderr).toMatch(/KAFKA_BROKERS \(invalid\)/);
    expect(run.stderr).toMatch(/TOKEN_SIGNING_SECRET \(invalid\)/);
  });
});

describe('behind an ingress that terminates TLS', () => {
  const get = (port: number, headers: Record<string, string> = {}) =>
    fetch(`http://127.0.0.1:${port}/v1/openapi.json`, { headers }).then(async (response) => ({ status: response.status, type: response.headers.get('content-type') }));

  it.each([
    ['trusts X-Forwarded-Proto: https only from a trusted proxy', 'loopback', 200],
    ['refuses it from anyone else with 403', '10.0.0.0/8', 403],
    ['believes no proxy when none is named', '', 403],
  ])('%s', async (_title, trustedProxies, withHeader) => {
    const port = stack.ports.gateway + 11 + (withHeader === 200 ? 0 : 1);
    const replica = await startReplica(stack, 'api-gateway', `api-gateway-behind-proxy-${withHeader}`, {
      TLS_TERMINATED_BY_PROXY: 'true',
      TRUSTED_PROXIES: trustedProxies,
      PUBLIC_PORT: String(port),
      OPS_PORT: String(stack.ports.ops['api-gateway'] + 30 + (withHeader === 200 ? 0 : 1)),
      INSTANCE_ID: `behind-proxy-${withHeader}`,
    });
    try {
      expect(await get(port)).toEqual({ status: 403, type: expect.stringMatching(/^application\/problem\+json/) });
      expect((await get(port, { 'x-forwarded-proto': 'http' })).status).toBe(403);
      expect((await get(port, { 'x-forwarded-proto': 'https' })).status).toBe(withHeader);
    } finally {
      await replica.stop();
    }
  });
});

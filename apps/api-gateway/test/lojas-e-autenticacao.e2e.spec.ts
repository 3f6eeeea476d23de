import { sign } from 'jsonwebtoken';
import { apiClient, clientAddress, createStore, eventually, expectInvalid, expectProblem, serviceLogs, startReplica, testStack, type Replica } from '@trilha/testing';

const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);
const admin = { 'x-admin-key': stack.adminApiKey };

describe('operator routes (docs/API.md section 1)', () => {
  it('creates a store with an account code of at least 128 random bits', async () => {
    const response = await api('POST', '/admin/lojas', { headers: admin, body: { nome: 'Loja Um' } });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      idLoja: expect.any(Number),
      nome: 'Loja Um',
      codigo: expect.any(String),
      ativa: true,
      criadaEm: expect.stringMatching(/Z$/),
    });
    expect(Buffer.from(response.body.codigo, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
  });

  it('refuses operator routes without the right key', async () => {
    expectProblem(await api('POST', '/admin/lojas', { body: { nome: 'x' } }), 401);
    expectProblem(await api('POST', '/admin/lojas', { headers: { 'x-admin-key': 'wrong-key-0123456789' }, body: { nome: 'x' } }), 401);
  });

  it('names every invalid field, and writes nothing', async () => {
    const response = await api('POST', '/admin/lojas', { headers: admin, body: { nome: 'x'.repeat(151), extra: true } });
    expectInvalid(response, 'nome', 'extra');
    expectProblem(await api('POST', '/admin/lojas', { headers: admin, body: { nome: 42 } }), 400);
    expectProblem(await api('POST', '/admin/lojas/abc/desativar', { headers: admin }), 400);
    expectProblem(await api('POST', '/admin/lojas/999999/desativar', { headers: admin }), 404);
  });

  it('answers 400 to malformed JSON or JSON that is not an object, 413 to a body over 1 MiB and 415 to a body that is not JSON', async () => {
    const malformed = await api('POST', '/admin/lojas', { headers: admin, rawBody: '{"nome": ' });
    expectProblem(malformed, 400);
    expect(malformed.body.detail).toBe('O corpo da requisição não é JSON válido.');
    for (const rawBody of ['null', '[]', '42']) {
      const notAnObject = await api('POST', '/admin/lojas', { headers: admin, rawBody });
      expectProblem(notAnObject, 400);
      expect(notAnObject.body.detail).toBe('O corpo da requisição deve ser um objeto JSON.');
    }
    const tooLarge = await api('POST', '/admin/lojas', { headers: admin, rawBody: JSON.stringify({ nome: 'x'.repeat(1024 * 1024) }) });
    expectProblem(tooLarge, 413);
    expect(tooLarge.body.detail).toBe('O corpo da requisição passa de 1 MiB.');
    const notJson = await api('POST', '/admin/lojas', { headers: { ...admin, 'content-type': 'text/plain' }, rawBody: 'nome=x' });
    expectProblem(notJson, 415);
    expect(notJson.body.detail).toBe('Envie o corpo como application/json.');
  });

  it('records an app removal with 202', async () => {
    const loja = await createStore();
    const response = await api('POST', `/admin/lojas/${loja.idLoja}/aplicativo/remover`, { headers: admin });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ idLoja: loja.idLoja, dataRemocao: expect.stringMatching(/Z$/) });
  });
});

describe('authentication (docs/API.md section 2)', () => {
  it('exchanges the account code for a store-scoped bearer token with a lifetime', async () => {
    const loja = await createStore('Loja Token');
    const auth = await api('GET', `/autenticacao/${loja.codigo}`, { headers: clientAddress() });
    expect(auth.body).toEqual({ token: expect.any(String), tipo: 'Bearer', expiraEm: expect.stringMatching(/Z$/), expiraEmSegundos: 3600 });
    expect(Math.abs(Date.parse(auth.body.expiraEm) - Date.now() - 3600_000)).toBeLessThan(10_000);
    const me = await api('GET', '/loja', { token: auth.body.token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ idLoja: loja.idLoja, nome: 'Loja Token', ativa: true });
  });

  it('keeps the account code, a credential, out of the request logs', async () => {
    const loja = await createStore('Loja Log');
    const headers = { ...clientAddress(), 'x-request-id': `codigo-log-${loja.idLoja}` };
    expect((await api('GET', `/autenticacao/${loja.codigo}`, { headers })).status).toBe(200);
    const line = await eventually('the gateway logging the exchange', () =>
      serviceLogs(stack.dataDir, 'api-gateway').find((entry) => entry.correlationId === headers['x-request-id']));
    expect(line).toMatchObject({ msg: 'request completed', req: { url: '/v1/autenticacao/…' }, res: { statusCode: 200 } });
    expect(serviceLogs(stack.dataDir, 'api-gateway').filter((entry) => JSON.stringify(entry).includes(loja.codigo))).toEqual([]);
  });

  it('gives the same 401 for an unknown code', async () => {
    expectProblem(await api('GET', '/autenticacao/codigo-que-nao-existe', { headers: clientAddress() }), 401);
  });

  it('refuses a missing, malformed, forged or expired token with 401', async () => {
    const loja = await createStore();
    const secret = stack.env['api-gateway'].TOKEN_SIGNING_SECRET;
    const expired = sign({ sub: `loja:${loja.idLoja}`, idLoja: loja.idLoja, emt: Date.now() - 7200_000 }, secret, { expiresIn: -60 });
    const forged = sign({ sub: `loja:${loja.idLoja}`, idLoja: loja.idLoja, emt: Date.now() }, 'not-the-secret-not-the-secret-xx', { expiresIn: 600 });
    const attempts: Record<string, string>[] = [{}, { authorization: 'Basic abc' }, { authorization: 'Bearer not-a-jwt' }, { authorization: `Bearer ${forged}` }, { authorization: `Bearer ${expired}` }];
    for (const headers of attempts) {
      const response = await api('GET', '/loja', { headers });
      expectProblem(response, 401);
      expect(response.headers['www-authenticate']).toBe('Bearer');
    }
  });

  it('revokes every token on every gateway replica within 2 s of a deactivation', async () => {
    const port = stack.ports.gateway + 7;
    const replica: Replica = await startReplica(stack, 'api-gateway', 'api-gateway-replica-2', {
      PUBLIC_PORT: String(port),
      OPS_PORT: String(stack.ports.ops['api-gateway'] + 20),
      INSTANCE_ID: 'e2e-replica-2',
    });
    try {
      const loja = await createStore('Loja Desativada');
      const onReplica = (path: string) => api('GET', `https://localhost:${port}/v1${path}`, { token: loja.token });
      expect((await onReplica('/loja')).status).toBe(200);
      expect((await api('POST', `/admin/lojas/${loja.idLoja}/desativar`, { headers: admin })).status).toBe(200);
      const deactivatedAt = Date.now();
      await eventually('401 on the second replica', async () => ((await onReplica('/loja')).status === 401 ? true : undefined), 2000, 20);
      expect(Date.now() - deactivatedAt).toBeLessThanOrEqual(2000);
      expectProblem(await api('GET', '/loja', { token: loja.token }), 401);
      expectProblem(await api('GET', `/autenticacao/${loja.codigo}`, { headers: clientAddress() }), 401);

      const reactivated = await api('POST', `/admin/lojas/${loja.idLoja}/ativar`, { headers: admin });
      expect(reactivated.status).toBe(200);
      expect(reactivated.body).toMatchObject({ idLoja: loja.idLoja, ativa: true });
      // A token issued before the deactivation stays revoked; a new one works on both replicas.
      expectProblem(await api('GET', '/loja', { token: loja.token }), 401);
      const fresh = await api('GET', `/autenticacao/${loja.codigo}`, { headers: clientAddress() });
      expect(fresh.status).toBe(200);
      expect((await api('GET', '/loja', { token: fresh.body.token })).status).toBe(200);
      await eventually('the new token accepted on the second replica', async () =>
        (await api('GET', `https://localhost:${port}/v1/loja`, { token: fresh.body.token })).status === 200 || undefined, 2000, 20);
    } finally {
      await replica.stop();
    }
  });
});

describe('account code rotation (docs/API.md section 1)', () => {
  it('refuses the old code at once and its tokens on every gateway replica within 2 s; the new code and its tokens work', async () => {
    const port = stack.ports.gateway + 9;
    const replica: Replica = await startReplica(stack, 'api-gateway', 'api-gateway-replica-rotation', {
      PUBLIC_PORT: String(port),
      OPS_PORT: String(stack.ports.ops['api-gateway'] + 22),
      INSTANCE_ID: 'e2e-replica-rotation',
    });
    try {
      const loja = await createStore('Loja Rotação');
      const onReplica = (path: string, options: Parameters<typeof api>[2]) => api('GET', `https://localhost:${port}/v1${path}`, options);
      expect((await onReplica('/loja', { token: loja.token })).status).toBe(200);

      const rotated = await api('POST', `/admin/lojas/${loja.idLoja}/codigo/rotacionar`, { headers: admin });
      const rotatedAt = Date.now();
      expect(rotated.status).toBe(200);
      expect(rotated.body).toEqual({
        idLoja: loja.idLoja,
        nome: 'Loja Rotação',
        codigo: expect.any(String),
        ativa: true,
        criadaEm: loja.criadaEm,
        dataRotacao: expect.stringMatching(/Z$/),
      });
      expect(rotated.body.codigo).not.toBe(loja.codigo);
      expect(Buffer.from(rotated.body.codigo, 'base64url').length * 8).toBeGreaterThanOrEqual(128);

      expectProblem(await api('GET', `/autenticacao/${loja.codigo}`, { headers: clientAddress() }), 401);
      expectProblem(await onReplica(`/autenticacao/${loja.codigo}`, { headers: clientAddress() }), 401);
      expectProblem(await api('GET', '/loja', { token: loja.token }), 401);
      await eventually('the old token refused on the second replica', async () => ((await onReplica('/loja', { token: loja.token })).status === 401 ? true : undefined), 2000, 20);
      expect(Date.now() - rotatedAt).toBeLessThanOrEqual(2000);

      for (const autenticar of [(path: string) => api('GET', path, { headers: clientAddress() }), (path: string) => onReplica(path, { headers: clientAddress() })]) {
        const fresh = await autenticar(`/autenticacao/${rotated.body.codigo}`);
        expect(fresh.status).toBe(200);
        expect((await api('GET', '/loja', { token: fresh.body.token })).status).toBe(200);
        expect((await onReplica('/loja', { token: fresh.body.token })).status).toBe(200);
      }
    } finally {
      await replica.stop();
    }
  });

  it('answers 404 for an unknown store, 400 for an id that is not a number and 401 without the operator key', async () => {
    expectProblem(await api('POST', '/admin/lojas/999999/codigo/rotacionar', { headers: admin }), 404);
    expectProblem(await api('POST', '/admin/lojas/abc/codigo/rotacionar', { headers: admin }), 400);
    const loja = await createStore();
    expectProblem(await api('POST', `/admin/lojas/${loja.idLoja}/codigo/rotacionar`), 401);
    expect((await api('GET', '/loja', { token: loja.token })).status).toBe(200);
  });
});

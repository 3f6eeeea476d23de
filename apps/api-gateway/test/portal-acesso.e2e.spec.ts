import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { Client } from 'pg';
import { Agent, request } from 'undici';
import {
  apiClient, clientAddress, createStore, expectInvalid, expectProblem, registerWebhook, startReplica, testStack, uniqueId, WebhookReceiver, type ApiResponse, type Replica, type TestStore,
} from '@trilha/testing';

const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);
const admin = { 'x-admin-key': stack.adminApiKey };
const receiver = WebhookReceiver.forTestFile(stack);
const db = new Client({ connectionString: stack.infra.databaseUrl });
const COOKIE = '__Host-trilha-portal';
/** The gateway's own origin: a portal page's requests carry it in `Origin`. */
const ORIGIN = new URL(stack.baseUrl).origin;
const SO_CONSULTA = 'Esta sessão do portal só permite consultar; peça um link com capacidade gerenciar.';

beforeAll(() => db.connect());
afterAll(() => db.end());

interface Link {
  url: string;
  expiraEm: string;
  capacidade: string;
  duracao: number;
}

/** The secret a link carries in its fragment. */
const secretOf = (link: Link) => link.url.split('#')[1];
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

async function mintLink(loja: TestStore, body: object = {}): Promise<Link> {
  const response = await api<Link>('POST', '/portal/links', { token: loja.token, body });
  expect(response.status).toBe(201);
  return response.body;
}

/** Opens a session with a link's secret (each from its own client address: 30 openings a minute per address). */
const open = (secret: string) => api('POST', '/portal/sessoes', { body: { link: secret }, headers: clientAddress() });

/** The session cookie's value that an answer sets. */
function cookieOf(response: ApiResponse): string {
  const [pair] = response.headers['set-cookie'].split('; ');
  expect(pair.startsWith(`${COOKIE}=`)).toBe(true);
  return pair.slice(COOKIE.length + 1);
}

async function session(loja: TestStore, capacidade: 'ver' | 'gerenciar' = 'ver'): Promise<string> {
  const opened = await open(secretOf(await mintLink(loja, { capacidade })));
  expect(opened.status).toBe(201);
  return cookieOf(opened);
}

/** Headers of a portal page's request: its cookie and, as a browser sends on a change, its origin. */
const asPortal = (cookie: string, headers: Record<string, string> = { origin: ORIGIN }) => ({ headers: { cookie: `${COOKIE}=${cookie}`, ...headers } });

describe('portal links and sessions (docs/API.md section 11)', () => {
  let loja: TestStore;

  beforeAll(async () => {
    loja = await createStore(`Loja Portal ${uniqueId()}`);
  });

  it('mints a single-use link with its secret in the fragment, and opens a session with a __Host- cookie', async () => {
    const minted = await api<Link>('POST', '/portal/links', { token: loja.token, body: { capacidade: 'gerenciar', duracao: 7200 } });
    expect(minted.status).toBe(201);
    expect(minted.headers['cache-control']).toBe('no-store');
    expect(minted.body).toEqual({ url: expect.any(String), expiraEm: expect.any(String), capacidade: 'gerenciar', duracao: 7200 });
    expect(minted.body.url).toMatch(new RegExp(`^${stack.env['api-gateway'].PUBLIC_BASE_URL}/portal/#[A-Za-z0-9_-]{43}$`));
    expect(Date.parse(minted.body.expiraEm) - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(Date.parse(minted.body.expiraEm) - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    // Only the secret's hash is kept.
    const [row] = (await db.query(`SELECT hash FROM gateway.portal_links WHERE hash = $1`, [sha256(secretOf(minted.body))])).rows;
    expect(row).toBeDefined();
    expect(JSON.stringify((await db.query(`SELECT * FROM gateway.portal_links WHERE id_loja = $1`, [loja.idLoja])).rows)).not.toContain(secretOf(minted.body));

    const opened = await open(secretOf(minted.body));
    expect(opened.status).toBe(201);
    expect(opened.headers['cache-control']).toBe('no-store');
    expect(opened.body).toEqual({ idLoja: loja.idLoja, nomeLoja: loja.nome, capacidade: 'gerenciar', expiraEm: expect.any(String) });
    expect(Math.abs(Date.parse(opened.body.expiraEm) - (Date.now() + 7200_000))).toBeLessThan(10_000);
    const [pair, ...attributes] = opened.headers['set-cookie'].split('; ');
    expect(pair).toMatch(new RegExp(`^${COOKIE}=[A-Za-z0-9_-]{43}$`));
    expect(attributes.sort()).toEqual(['HttpOnly', 'Max-Age=7200', 'Path=/', 'SameSite=Strict', 'Secure']);

    const current = await api('GET', '/portal/sessao', asPortal(cookieOf(opened), {}));
    expect(current.status).toBe(200);
    expect(current.body).toEqual(opened.body);
  });

  it('defaults to a ver link whose session lasts an hour, with or without a body', async () => {
    const minted = await api<Link>('POST', '/portal/links', { token: loja.token });
    expect(minted.status).toBe(201);
    expect(minted.body).toMatchObject({ capacidade: 'ver', duracao: 3600 });
    expect(await mintLink(loja)).toMatchObject({ capacidade: 'ver', duracao: 3600 });
    const opened = await open(secretOf(minted.body));
    expect(opened.body.capacidade).toBe('ver');
    expect(opened.headers['set-cookie']).toContain('Max-Age=3600');
  });

  it('refuses a capacity it does not know and a duration outside 5 min to 7 days', async () => {
    expectInvalid(await api('POST', '/portal/links', { token: loja.token, body: { capacidade: 'admin' } }), 'capacidade');
    expectInvalid(await api('POST', '/portal/links', { token: loja.token, body: { duracao: 299 } }), 'duracao');
    expectInvalid(await api('POST', '/portal/links', { token: loja.token, body: { duracao: 604_801 } }), 'duracao');
    expect((await api('POST', '/portal/links', { token: loja.token, body: { duracao: 604_800 } })).status).toBe(201);
  });

  it('refuses a link used twice with a 410 that says to ask for a new one', async () => {
    const secret = secretOf(await mintLink(loja));
    expect((await open(secret)).status).toBe(201);
    const again = await open(secret);
    expectProblem(again, 410);
    expect(again.body.detail).toMatch(/já foi usado.*Peça um novo link ao sistema da loja/);
    expect(again.headers['set-cookie']).toBeUndefined();
  });

  it('opens one session when the same link is sent twice at once', async () => {
    const secret = secretOf(await mintLink(loja));
    const statuses = (await Promise.all([open(secret), open(secret), open(secret)])).map((response) => response.status).sort();
    expect(statuses).toEqual([201, 410, 410]);
  });

  it('refuses a link not opened within 15 minutes with a 410 that says so', async () => {
    const secret = secretOf(await mintLink(loja));
    await db.query(`UPDATE gateway.portal_links SET expira_em = now() - interval '1 second' WHERE hash = $1`, [sha256(secret)]);
    const late = await open(secret);
    expectProblem(late, 410);
    expect(late.body.detail).toMatch(/expirou.*15 minutos.*Peça um novo link/);
  });

  it('refuses a forged link and a forged or missing session with a 401', async () => {
    const forged = await open(randomBytes(32).toString('base64url'));
    expectProblem(forged, 401);
    expect(forged.body.detail).toMatch(/Link do portal inválido/);
    expectProblem(await api('GET', '/portal/sessao', asPortal(randomBytes(32).toString('base64url'), {})), 401);
    expectProblem(await api('GET', '/portal/sessao'), 401);
    // A token is no session.
    expectProblem(await api('GET', '/portal/sessao', { token: loja.token }), 401);
  });

  it('refuses an expired session with a 401 that says to ask for a new link', async () => {
    const cookie = await session(loja);
    await db.query(`UPDATE gateway.portal_sessoes SET expira_em = now() - interval '1 second' WHERE hash = $1`, [sha256(cookie)]);
    const expired = await api('GET', '/portal/sessao', asPortal(cookie, {}));
    expectProblem(expired, 401);
    expect(expired.body.detail).toBe('A sessão do portal expirou; peça um novo link ao sistema da loja.');
  });

  it('ends its own session on Sair (even a ver one), clearing the cookie', async () => {
    const cookie = await session(loja, 'ver');
    const left = await api('DELETE', '/portal/sessao', asPortal(cookie));
    expect(left.status).toBe(204);
    const [pair, ...attributes] = left.headers['set-cookie'].split('; ');
    expect(pair).toBe(`${COOKIE}=`);
    expect(attributes.sort()).toEqual(['HttpOnly', 'Max-Age=0', 'Path=/', 'SameSite=Strict', 'Secure']);
    expectProblem(await api('GET', '/portal/sessao', asPortal(cookie, {})), 401);
  });

  it('ends every session of the store at once, by token or by a gerenciar session', async () => {
    const [first, second] = [await session(loja, 'gerenciar'), await session(loja, 'ver')];
    const ended = await api('POST', '/portal/sessoes/encerrar', { token: loja.token });
    expect(ended.status).toBe(200);
    expect(ended.body.encerradas).toBeGreaterThanOrEqual(2);
    for (const cookie of [first, second]) expectProblem(await api('GET', '/loja', asPortal(cookie, {})), 401);

    const [byPortal, other] = [await session(loja, 'gerenciar'), await session(loja, 'ver')];
    expectProblem(await api('POST', '/portal/sessoes/encerrar', asPortal(other)), 403);
    const endedByPortal = await api('POST', '/portal/sessoes/encerrar', asPortal(byPortal));
    expect(endedByPortal.body).toEqual({ encerradas: 2 });
    expectProblem(await api('GET', '/webhook/entregas', asPortal(other, {})), 401);
    expectProblem(await api('GET', '/portal/sessao', asPortal(byPortal, {})), 401);
  });

  it('refuses the sessions of a store deactivated after the link was minted', async () => {
    const outra = await createStore(`Loja Portal Desativada ${uniqueId()}`);
    const cookie = await session(outra);
    const pending = secretOf(await mintLink(outra));
    expect((await api('GET', '/loja', asPortal(cookie, {}))).status).toBe(200);
    expect((await api('POST', `/admin/lojas/${outra.idLoja}/desativar`, { headers: admin })).status).toBe(200);
    expectProblem(await api('GET', '/loja', asPortal(cookie, {})), 401);
    expectProblem(await open(pending), 401);
  });

  it('lets the operator mint a link for any store with the admin key', async () => {
    const minted = await api<Link>('POST', `/admin/lojas/${loja.idLoja}/portal/links`, { headers: admin, body: { capacidade: 'gerenciar' } });
    expect(minted.status).toBe(201);
    expect(minted.headers['cache-control']).toBe('no-store');
    expect(minted.body).toMatchObject({ capacidade: 'gerenciar', duracao: 3600 });
    const opened = await open(secretOf(minted.body));
    expect(opened.body).toMatchObject({ idLoja: loja.idLoja, capacidade: 'gerenciar' });
    expectProblem(await api('POST', `/admin/lojas/${loja.idLoja}/portal/links`, { body: {} }), 401);
    expectProblem(await api('POST', `/admin/lojas/${loja.idLoja}/portal/links`, { headers: { 'x-admin-key': 'errada'.repeat(4) }, body: {} }), 401);
    expectProblem(await api('POST', '/admin/lojas/999999999/portal/links', { headers: admin, body: {} }), 404);
    // A store's token mints only for its own store.
    expectProblem(await api('POST', `/admin/lojas/${loja.idLoja}/portal/links`, { token: loja.token, body: {} }), 401);
  });
});

describe('what a portal session may do', () => {
  let a: TestStore;
  let b: TestStore;

  beforeAll(async () => {
    [a, b] = await Promise.all([createStore(`Loja Portal A ${uniqueId()}`), createStore(`Loja Portal B ${uniqueId()}`)]);
    receiver.on('/portal-a', () => ({ status: 200 }));
    receiver.on('/portal-b', () => ({ status: 200 }));
    await registerWebhook(a, receiver.url('/portal-a'));
    await registerWebhook(b, receiver.url('/portal-b'));
  });

  it("reaches only its own store's data, in both directions; with a token too, the token's store", async () => {
    const [cookieA, cookieB] = [await session(a, 'gerenciar'), await session(b, 'gerenciar')];
    expect((await api('GET', '/webhook', asPortal(cookieA, {}))).body.url).toBe(receiver.url('/portal-a'));
    expect((await api('GET', '/webhook', asPortal(cookieB, {}))).body.url).toBe(receiver.url('/portal-b'));
    expect((await api('GET', '/loja', asPortal(cookieA, {}))).body).toMatchObject({ idLoja: a.idLoja });
    expect((await api('GET', '/loja', asPortal(cookieB, {}))).body).toMatchObject({ idLoja: b.idLoja });
    expect((await api('GET', '/portal/sessao', asPortal(cookieB, {}))).body).toMatchObject({ idLoja: b.idLoja, nomeLoja: b.nome });
    // A token and another store's cookie: the token decides, the cookie is not read.
    const both = await api('GET', '/webhook', { token: b.token, ...asPortal(cookieA, {}) });
    expect(both.body.url).toBe(receiver.url('/portal-b'));
    expect((await api('GET', '/loja', { token: a.token, ...asPortal(cookieB, {}) })).body).toMatchObject({ idLoja: a.idLoja });
    // A bad token is not made good by a cookie.
    expectProblem(await api('GET', '/webhook', { token: 'forjado', ...asPortal(cookieA, {}) }), 401);
    // A change through A's session touches A only.
    const ativado = await api('POST', '/webhook/ativar', asPortal(cookieA));
    expect(ativado.status).toBe(200);
    expect(ativado.body.url).toBe(receiver.url('/portal-a'));
    expectProblem(await api('POST', `/webhook/entregas/${randomUUID()}/reenviar`, asPortal(cookieA)), 404);
  });

  it('refuses a ver session every change, by the API, and lets it read', async () => {
    const cookie = await session(a, 'ver');
    const before = await api('GET', '/webhook', { token: a.token });
    const changes: [string, string, object?][] = [
      ['POST', '/webhook/novo', { url: receiver.url('/portal-a') }],
      ['POST', '/webhook/ativar'],
      ['POST', '/webhook/segredo/rotacionar'],
      ['POST', `/webhook/entregas/${randomUUID()}/reenviar`],
      ['POST', '/webhook/entregas/recuperar', { desde: new Date(Date.now() - 3600_000).toISOString() }],
      ['DELETE', `/fila/delete?idDocumento=${randomUUID()}`],
      ['DELETE', '/webhook'],
      ['POST', '/portal/sessoes/encerrar'],
    ];
    for (const [method, path, body] of changes) {
      const refused = await api(method, path, { ...asPortal(cookie), body });
      expectProblem(refused, 403);
      expect({ method, path, detail: refused.body.detail }).toEqual({ method, path, detail: SO_CONSULTA });
    }
    expect((await api('GET', '/webhook', { token: a.token })).body).toEqual(before.body);
    for (const path of ['/webhook', '/webhook/entregas', '/fila/lista', '/loja', '/portal/sessao']) {
      expect({ path, status: (await api('GET', path, asPortal(cookie, {}))).status }).toEqual({ path, status: 200 });
    }
    expect((await api('HEAD', '/webhook', asPortal(cookie, {}))).status).toBe(200);
  });

  it("refuses a session's change without this origin's Origin header (CSRF)", async () => {
    const cookie = await session(a, 'gerenciar');
    const withoutThisOrigin: Record<string, string>[] = [{}, { origin: 'https://atacante.example' }, { origin: 'null' }, { origin: ORIGIN.replace('https:', 'http:') }];
    for (const headers of withoutThisOrigin) {
      const refused = await api('POST', '/webhook/ativar', asPortal(cookie, headers));
      expectProblem(refused, 403);
      expect(refused.body.detail).toMatch(/Origin/);
    }
    expect((await api('POST', '/webhook/ativar', asPortal(cookie))).status).toBe(200);
    // A token needs no Origin: it is no cookie a browser sends on its own.
    expect((await api('POST', '/webhook/ativar', { token: a.token })).status).toBe(200);
  });

  it('is no credential on operations that do not list it', async () => {
    const cookie = await session(a, 'gerenciar');
    for (const [method, path] of [['GET', '/pedidos'], ['GET', '/atendimentos'], ['POST', '/portal/links']]) {
      const refused = await api(method, path, { ...asPortal(cookie), body: method === 'POST' ? {} : undefined });
      expect({ method, path, status: refused.status }).toEqual({ method, path, status: 401 });
    }
  });

  it("counts a session's requests against its store's limits, as a token's", async () => {
    const cookie = await session(a, 'ver');
    for (let attempt = 0; ; attempt += 1) {
      const byToken = await api('GET', '/webhook/entregas', { token: a.token });
      const byCookie = await api('GET', '/webhook/entregas', asPortal(cookie, {}));
      // Both within the same calendar minute: the counter is one.
      if (Number(byCookie.headers['ratelimit-reset']) > Number(byToken.headers['ratelimit-reset']) && attempt < 3) continue;
      expect(Number(byCookie.headers['ratelimit-remaining'])).toBe(Number(byToken.headers['ratelimit-remaining']) - 1);
      break;
    }
  });
});

describe('the portal app, served by the gateway at /portal/', () => {
  const dispatcher = new Agent({ connect: { ca: readFileSync(stack.caFile) } });
  const fixture = join(stack.dataDir, `portal-fixture-${uniqueId()}`);
  const empty = join(stack.dataDir, `portal-vazio-${uniqueId()}`);
  const html = '<!doctype html><html lang="pt-BR"><title>Portal</title><script type="module" src="assets/app-3f2a9c1d.js"></script></html>';
  const script = `console.log(${JSON.stringify('portal '.repeat(50))});`;
  const port = stack.ports.gateway + 33;
  let replica: Replica;

  const get = async (path: string, headers: Record<string, string> = {}, on = port) => {
    const response = await request(`https://localhost:${on}${path}`, { headers, dispatcher });
    return { status: response.statusCode, headers: response.headers as Record<string, string>, body: Buffer.from(await response.body.arrayBuffer()) };
  };

  beforeAll(async () => {
    mkdirSync(join(fixture, 'assets'), { recursive: true });
    mkdirSync(empty, { recursive: true });
    for (const [file, content] of [['index.html', html], ['assets/app-3f2a9c1d.js', script]]) {
      writeFileSync(join(fixture, file), content);
      writeFileSync(join(fixture, `${file}.br`), brotliCompressSync(content));
      writeFileSync(join(fixture, `${file}.gz`), gzipSync(content));
    }
    replica = await startReplica(stack, 'api-gateway', 'api-gateway-portal', {
      PUBLIC_PORT: String(port),
      OPS_PORT: String(stack.ports.ops['api-gateway'] + 33),
      INSTANCE_ID: 'e2e-portal',
      PORTAL_DIR: fixture,
    });
  }, 90_000);

  afterAll(() => replica?.stop());

  it('serves the page, Brotli first, with its security headers and no-cache', async () => {
    const page = await get('/portal/', { 'accept-encoding': 'gzip, br' });
    expect(page.status).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.body).toEqual(brotliCompressSync(html));
    expect(page.headers).toMatchObject({
      'content-type': expect.stringMatching(/^text\/html/),
      'cache-control': 'no-cache',
      'content-security-policy':
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      vary: expect.stringMatching(/accept-encoding/i),
    });
    const plain = await get('/portal/');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(html);
    expect((await get('/portal/index.html', { 'accept-encoding': 'gzip' })).headers['content-encoding']).toBe('gzip');
  });

  it('serves the assets for a year, immutable, gzip to a client without Brotli', async () => {
    const asset = await get('/portal/assets/app-3f2a9c1d.js', { 'accept-encoding': 'gzip' });
    expect(asset.status).toBe(200);
    expect(asset.headers).toMatchObject({ 'content-encoding': 'gzip', 'cache-control': 'public, max-age=31536000, immutable', 'content-type': expect.stringMatching(/javascript/) });
    expect(asset.body).toEqual(gzipSync(script));
  });

  it('redirects /portal to /portal/ and answers 404 for what the build does not have', async () => {
    const bare = await get('/portal');
    expect(bare.status).toBe(301);
    expect(bare.headers.location).toBe('/portal/');
    const missing = await get('/portal/assets/nada.js');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('answers 404 at /portal/ when the build has no portal', async () => {
    const other = stack.ports.gateway + 34;
    const without = await startReplica(stack, 'api-gateway', 'api-gateway-sem-portal', {
      PUBLIC_PORT: String(other),
      OPS_PORT: String(stack.ports.ops['api-gateway'] + 34),
      INSTANCE_ID: 'e2e-sem-portal',
      PORTAL_DIR: empty,
    });
    try {
      const page = await get('/portal/', {}, other);
      expect(page.status).toBe(404);
      expect(page.headers['content-type']).toMatch(/^application\/problem\+json/);
    } finally {
      await without.stop();
    }
  }, 90_000);
});

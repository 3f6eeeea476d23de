// Benchmark: the store portal's deliveries page, first load, in a real browser.
//
//   Targets, on this 2-core machine with the whole stack running, 1,000 stores, and 100,000
//   deliveries in the measured store's log:
//     the deliveries page's first load (HTML, assets and first data) ≤ 1 s at p95
//     each page's transfer ≤ 200 KB compressed
//
//   node bench/portal.mjs [--stores=1000 --deliveries=100000 --loads=40 --ceiling=true --keep]
//
// It starts its own durable stack (fast: false), creates --stores stores through the operator
// API, and writes --deliveries deliveries (each with one to six attempts, as sent and answered)
// into the measured store's log directly in PostgreSQL, plus 100 into every other store's, all
// delivered or failed (nothing left for the dispatcher to send). Then Debian's Chromium, through
// playwright-core, loads `/portal/#entregas` --loads times, each in a fresh browser context (an
// empty cache: the first visit) holding a portal session opened through the API; a load ends
// when the first page of deliveries is on the screen, timed by the page's own clock from the
// start of navigation. Each page of the portal is then loaded once, cold, for its transfer size.
// Unless --ceiling=false, the same loads run against a bare node:https server answering every
// request of a load (the HTML, the assets, the API's answers) from memory, with the stack's
// certificate: what the browser, TLS and the bytes alone cost on this machine. The report gives
// the ratio of the portal's figures to it.
import { createServer } from 'node:https';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';
import { BASE_PORTS, inParallel, parseArgs, say } from './lib/bench-kit.mjs';
import { benchStack, clientAddress } from './lib/bench-stack.mjs';
import { latencyLine, percentile } from './lib/latency.mjs';
import { cpuMeter, describeMachine } from './lib/machine.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('pg');

const args = parseArgs({ stores: 1000, deliveries: 100_000, loads: 40, ceiling: true, keep: false });
const TARGET = { firstLoadP95Ms: 1000, pageTransferKb: 200 };
const CHROMIUM = '/usr/bin/chromium';
const PAGES = ['webhook', 'entregas', 'fila', 'catalogo'];
const SESSION_COOKIE = '__Host-trilha-portal';
/** What the page counts as loaded: the first row of the deliveries table. */
const FIRST_ROW = 'main table tbody tr';

/** Every delivery of `idLojas` with its attempts, in one statement per table (generate_series). */
async function seedDeliveries(db, idLojas, perStore) {
  await db.query(
    `INSERT INTO delivery.entregas (id_loja, id_evento, evento, data, ocorrido_em, status, tentativas, numero_tentativas)
     SELECT s.id_loja, gen_random_uuid(), (ARRAY['atendimento.criado', 'atendimento.mensagem', 'atendimento.encerrado'])[1 + g % 3],
            json_build_object('idAtendimento', 'at-' || g, 'idLoja', s.id_loja, 'canal', 'chat', 'direcao', 'entrada',
                              'remetente', 'cliente', 'mensagem', 'Olá, onde está o meu pedido ' || g || '?', 'dataHora', now() - g * interval '1 second'),
            now() - ($2::int - g) * interval '1 second',
            CASE WHEN g % 7 = 0 THEN 'falhou' ELSE 'entregue' END, 1 + g % 6, 1 + g % 6
     FROM generate_series(1, $2::int) AS g, unnest($1::int[]) AS s(id_loja)
     ORDER BY g, s.id_loja`,
    [idLojas, perStore],
  );
}

async function seedAttempts(db) {
  await db.query(
    `INSERT INTO delivery.tentativas (id_entrega, numero, data_hora, status_http, duracao_ms, erro)
     SELECT e.id_entrega, n, e.ocorrido_em + n * interval '10 seconds',
            CASE WHEN n = e.tentativas AND e.status = 'entregue' THEN 200 ELSE 503 END, 20 + n * 7,
            CASE WHEN n = e.tentativas AND e.status = 'entregue' THEN NULL ELSE 'status 503' END
     FROM delivery.entregas e, generate_series(1, e.tentativas) AS n`,
  );
}

/** A portal session of the store (a link minted and opened through the API): the cookie's value. */
async function openSession(api, token) {
  const link = await api('POST', '/portal/links', { token, body: { capacidade: 'ver' } });
  if (link.status !== 201) throw new Error(`POST /portal/links: ${link.status} ${JSON.stringify(link.body)}`);
  const secret = new URL(link.body.url).hash.slice(1);
  // From addresses of their own: opening sessions is limited per client address.
  const session = await api('POST', '/portal/sessoes', { body: { link: secret }, headers: clientAddress() });
  const cookie = String(session.headers['set-cookie'] ?? '');
  const value = new RegExp(`${SESSION_COOKIE}=([^;]+)`).exec(cookie)?.[1];
  if (session.status !== 201 || !value) throw new Error(`POST /portal/sessoes: ${session.status} ${cookie}`);
  return value;
}

/**
 * Loads `url` in a fresh context (optionally with the session cookie), waits for `ready`, and
 * answers the page's own figures: milliseconds from the start of navigation, and the bytes it
 * transferred (compressed as sent, headers included).
 */
async function coldLoad(browser, url, { cookie, ready }) {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 900 } });
  try {
    if (cookie) await context.addCookies([{ name: SESSION_COOKIE, value: cookie, url: new URL(url).origin, httpOnly: true, secure: true, sameSite: 'Strict' }]);
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'commit' });
    await page.locator(ready).first().waitFor({ timeout: 30_000 });
    const { ms } = await page.evaluate('({ ms: performance.now() })');
    await page.waitForLoadState('networkidle');
    const transferred = await page.evaluate(`performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))
      .reduce((sum, entry) => sum + entry.transferSize, 0)`);
    return { ms, transferred };
  } finally {
    await context.close();
  }
}

/** Every answer of one load of `url`, as the browser received it: path → { status, headers, body }. */
async function recordLoad(browser, url, cookie) {
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const answers = new Map();
  try {
    await context.addCookies([{ name: SESSION_COOKIE, value: cookie, url: new URL(url).origin, httpOnly: true, secure: true, sameSite: 'Strict' }]);
    const page = await context.newPage();
    page.on('response', (response) => {
      const path = new URL(response.url()).pathname + new URL(response.url()).search;
      answers.set(path, response.body().then((body) => ({ status: response.status(), headers: response.headers(), body })).catch(() => undefined));
    });
    await page.goto(url);
    await page.locator(FIRST_ROW).first().waitFor({ timeout: 30_000 });
    await page.waitForLoadState('networkidle');
  } finally {
    await context.close();
  }
  const recorded = new Map();
  for (const [path, answer] of answers) {
    const value = await answer;
    if (value) recorded.set(path, value);
  }
  return recorded;
}

/** A bare node:https server answering `answers` from memory with the headers the platform sent (uncompressed: the loopback has bandwidth to spare). */
function bareServer(stack, answers) {
  const { TLS_CERT_FILE, TLS_KEY_FILE } = stack.env['api-gateway'];
  const tls = { cert: readFileSync(TLS_CERT_FILE), key: readFileSync(TLS_KEY_FILE) };
  const server = createServer(tls, (request, response) => {
    const answer = answers.get(request.url);
    if (!answer) return response.writeHead(404).end();
    const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'set-cookie'].includes(name)));
    response.writeHead(answer.status, headers).end(answer.body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, origin: `https://localhost:${server.address().port}` })));
}

const bench = await benchStack('portal', BASE_PORTS.portal, { keep: args.keep });

await bench.run(async () => {
  const { api, facts, stack } = bench;
  const db = new Client({ connectionString: stack.infra.databaseUrl });
  await db.connect();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    say(`creating ${args.stores} stores`);
    const stores = await bench.createStores(args.stores, { withTokens: false });
    const measured = { ...stores[0], token: await bench.token(stores[0].codigo) };
    say(`writing ${args.deliveries} deliveries into store ${measured.idLoja}'s log and 100 into each other store's`);
    const seedStart = Date.now();
    await seedDeliveries(db, [measured.idLoja], args.deliveries);
    await seedDeliveries(db, stores.slice(1).map((store) => store.idLoja), 100);
    await seedAttempts(db);
    await db.query(`VACUUM ANALYZE delivery.entregas`);
    await db.query(`VACUUM ANALYZE delivery.tentativas`);
    const [{ entregas, tentativas, size }] = (await db.query(
      `SELECT (SELECT count(*)::int FROM delivery.entregas) AS entregas, (SELECT count(*)::int FROM delivery.tentativas) AS tentativas,
              pg_size_pretty(pg_total_relation_size('delivery.entregas') + pg_total_relation_size('delivery.tentativas')) AS size`,
    )).rows;
    say(`${entregas} deliveries, ${tentativas} attempts (${size} with indexes) in ${((Date.now() - seedStart) / 1000).toFixed(0)} s`);

    const url = `${stack.baseUrl.replace(/\/v1$/, '')}/portal/#entregas`;
    const sessions = await inParallel(args.loads + 1 + PAGES.length, 4, () => openSession(api, measured.token));
    // Warm-up: the gateway's and the services' first requests (connections, JIT), not measured.
    await coldLoad(browser, url, { cookie: sessions.pop(), ready: FIRST_ROW });

    say(`deliveries page: ${args.loads} first loads, one at a time`);
    const meter = cpuMeter(stack);
    meter.start();
    const loads = [];
    for (let n = 0; n < args.loads; n += 1) loads.push(await coldLoad(browser, url, { cookie: sessions.pop(), ready: FIRST_ROW }));
    const cpu = meter.stop();
    const times = loads.map((load) => load.ms).sort((a, b) => a - b);

    const transfers = [];
    for (const page of PAGES) {
      const pageUrl = url.replace(/#.*$/, `#${page}`);
      const { transferred } = await coldLoad(browser, pageUrl, { cookie: sessions.pop(), ready: 'main h1' });
      transfers.push({ page, kb: transferred / 1024 });
    }

    let bare;
    if (args.ceiling) {
      say(`ceiling: the same loads from a bare node:https server answering from memory`);
      const answers = await recordLoad(browser, url, await openSession(api, measured.token));
      const { server, origin } = await bareServer(stack, answers);
      try {
        const bareUrl = `${origin}/portal/#entregas`;
        await coldLoad(browser, bareUrl, { ready: FIRST_ROW });
        bare = [];
        for (let n = 0; n < args.loads; n += 1) bare.push((await coldLoad(browser, bareUrl, { ready: FIRST_ROW })).ms);
        bare.sort((a, b) => a - b);
      } finally {
        server.close();
      }
    }

    const p95 = percentile(times, 95);
    const heaviest = Math.max(...transfers.map((transfer) => transfer.kb));
    const pass = p95 <= TARGET.firstLoadP95Ms && heaviest <= TARGET.pageTransferKb;
    process.stdout.write([
      '',
      `Store portal: the deliveries page's first load in Chromium (fresh context each time: nothing cached), through the gateway over HTTPS`,
      `  date            ${facts.date}`,
      `  machine         ${describeMachine(facts)}; load average before start ${facts.loadAverage}`,
      `  stack           durable (PostgreSQL fsync on), log level warn, one replica of each service`,
      `  data            ${args.stores} stores; ${args.deliveries} deliveries in the measured store's log, ${entregas} in all with ${tentativas} attempts (${size})`,
      `  first load      ${args.loads} loads: ${latencyLine(times)}`,
      `                  CPU ${cpu.text}`,
      `  transfer        ${transfers.map((transfer) => `${transfer.page} ${transfer.kb.toFixed(1)} KB`).join(', ')} (compressed, headers included)`,
      ...(bare ? [`  ceiling         bare node:https, the same answers from memory: ${latencyLine(bare)}; p95 ratio ${(p95 / percentile(bare, 95)).toFixed(2)}× the ceiling's`] : []),
      `  target          first load p95 ≤ ${TARGET.firstLoadP95Ms} ms (${p95.toFixed(0)}), every page ≤ ${TARGET.pageTransferKb} KB (heaviest ${heaviest.toFixed(1)}): ${pass ? 'PASS' : 'FAIL'}`,
      '',
    ].join('\n'));
    return pass;
  } finally {
    await browser.close().catch(() => undefined);
    await db.end().catch(() => undefined);
  }
});

// `node tools/trace-demo.mjs [out.png]`, beside a running `npm start`: sends one notification
// through the stack and photographs its trace in Zipkin's UI (docs/TRACES.md shows the result).
// It creates a store, registers a webhook on a receiver of its own that answers the first
// notification with a 500 and the retry with a 200, opens a conversation with a sampled
// `traceparent`, waits until Zipkin holds both attempts, and saves a screenshot taken by
// Debian's headless chromium. Same variables as `npm start` (TRILHA_DATA_DIR, TRILHA_*_PORT).
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { Agent } from 'undici';
import { httpsApi } from './https-api.mjs';
import { PORT_PROFILES, stackPorts } from './stack.mjs';

const CHROMIUM = '/usr/bin/chromium';
/** The first retry comes 10 s after the failed attempt (the default schedule), and its span a second later. */
const PATIENCE_MS = 60_000;

const root = resolve(import.meta.dirname, '..');
const dataDir = resolve(root, process.env.TRILHA_DATA_DIR ?? '.trilha/local');
const out = resolve(process.argv[2] ?? join(root, 'docs/trace-notificacao.png'));
const ports = stackPorts(PORT_PROFILES.start);
const base = `https://localhost:${ports.gateway}/v1`;
const zipkin = `http://127.0.0.1:${ports.zipkin}`;
const cert = readFileSync(join(dataDir, 'tls/localhost.crt'));
const key = readFileSync(join(dataDir, 'tls/localhost.key'));
const { adminApiKey } = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8'));
const dispatcher = new Agent({ connect: { ca: cert } });

const api = httpsApi(base, dispatcher);

async function eventually(what, probe) {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() - started > PATIENCE_MS) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 500));
  }
}

// The store's endpoint: the registration's verification and the retry get a 200, the first notification a 500.
let notifications = 0;
const receiver = createServer({ cert, key }, (request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const verification = JSON.parse(Buffer.concat(chunks).toString()).evento === 'webhook.verificacao';
    if (!verification) notifications += 1;
    response.writeHead(verification || notifications > 1 ? 200 : 500, { 'content-type': 'application/json' }).end('{}');
  });
});
await new Promise((done) => receiver.listen(0, '127.0.0.1', done));

try {
  const loja = await api('POST', '/admin/lojas', { headers: { 'x-admin-key': adminApiKey }, body: { nome: 'Loja do rastro' } });
  const { token } = await api('GET', `/autenticacao/${loja.codigo}`);
  await api('POST', '/webhook/novo', { token, body: { url: `https://localhost:${receiver.address().port}/trilha` } });
  const traceId = randomBytes(16).toString('hex');
  await api('POST', '/atendimentos', {
    token,
    headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
    body: { canal: 'chat', tipo: 'duvida', dadosCliente: { nome: 'Maria Silva', telefone: '+5511999990000', email: 'maria@example.com' } },
  });
  await eventually('both webhook attempts in Zipkin', async () => {
    const response = await fetch(`${zipkin}/api/v2/trace/${traceId}`);
    const spans = response.ok ? await response.json() : [];
    return spans.filter((span) => span.localEndpoint.serviceName === 'delivery-service' && span.kind === 'CLIENT').length >= 2;
  });

  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1500, height: 1150 } });
    await page.goto(`${zipkin}/zipkin/traces/${traceId}`);
    // The retry, selected: its tags (status, resend count, the first attempt) fill the side panel.
    await page.getByText('delivery-service: post', { exact: true }).last().click();
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: out, fullPage: true });
  } finally {
    await browser.close();
  }
  process.stdout.write(`trace ${traceId} (store ${loja.idLoja}): ${zipkin}/zipkin/traces/${traceId}\nscreenshot: ${out}\n`);
} finally {
  receiver.close();
  await dispatcher.close();
}

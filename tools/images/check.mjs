// `npm run images:check`, after `npm run images`: the four images started as containers against a
// local Kafka, PostgreSQL and Redis (tools/stack.mjs with `images`), on ports of their own. Each
// `migrate` applies its migrations to a fresh database and exits 0, each service answers /readyz,
// and one notification goes the whole way: a store created through the gateway's container
// registers an HTTPS webhook, opens a conversation (atendimento), reads its orders (tracking),
// and the delivery service's container delivers `atendimento.criado` with a valid signature.
// Exits non-zero, saying what failed and where the logs are, otherwise.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { Agent } from 'undici';
import { httpsApi } from '../https-api.mjs';
import { runOnSupportedNode } from '../runtime.mjs';
import { PORT_PROFILES, stackPorts, startStack } from '../stack.mjs';
import { imageName, imageSize } from './images.mjs';

await runOnSupportedNode();

const root = resolve(import.meta.dirname, '../..');
const say = (line) => process.stderr.write(`» ${line}\n`);
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
const PATIENCE_MS = 60_000;

const dataDir = mkdtempSync(join(tmpdir(), 'trilha-images-'));
const started = Date.now();
let stack;
let receiver;
let failed = false;
try {
  stack = await startStack({ dataDir, ports: stackPorts(PORT_PROFILES.images), log: say, fast: true, images: (service) => imageName(service, version) });
  say(`four containers ready in ${((Date.now() - started) / 1000).toFixed(1)} s (${Object.keys(stack.env).map((service) => `${service} ${(imageSize('podman', imageName(service, version)) / 1e6).toFixed(0)} MB`).join(', ')})`);

  const cert = readFileSync(stack.caFile);
  const key = readFileSync(join(dataDir, 'tls/localhost.key'));
  const dispatcher = new Agent({ connect: { ca: cert } });
  // The code of the store's account stays out of the progress lines.
  const api = httpsApi(stack.baseUrl, dispatcher, (method, path, status) => say(`${method} ${path.replace(/^\/autenticacao\/.*/, '/autenticacao/…')}: ${status}`));

  // The store's endpoint: answers the registration's verification and keeps every notification.
  const notifications = [];
  receiver = createServer({ cert, key }, (request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      if (JSON.parse(body).evento !== 'webhook.verificacao') notifications.push({ headers: request.headers, body });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise((done) => receiver.listen(0, '127.0.0.1', done));

  const loja = await api('POST', '/admin/lojas', { headers: { 'x-admin-key': stack.adminApiKey }, body: { nome: 'Loja dos contêineres' } });
  const { token } = await api('GET', `/autenticacao/${loja.codigo}`);
  const { segredo } = await api('POST', '/webhook/novo', { token, body: { url: `https://localhost:${receiver.address().port}/trilha` } });
  await api('GET', '/pedidos', { token });
  const { idAtendimento } = await api('POST', '/atendimentos', {
    token,
    body: { canal: 'chat', tipo: 'duvida', dadosCliente: { nome: 'Maria Silva', telefone: '+5511999990000', email: 'maria@example.com' } },
  });
  for (const deadline = Date.now() + PATIENCE_MS; notifications.length === 0; await new Promise((done) => setTimeout(done, 250))) {
    if (Date.now() > deadline) throw new Error(`no notification of conversation ${idAtendimento} within ${PATIENCE_MS / 1000} s`);
  }
  const [{ headers, body }] = notifications;
  const notification = new Webhook(segredo).verify(body, headers);
  if (notification.evento !== 'atendimento.criado' || notification.data.idAtendimento !== idAtendimento) {
    throw new Error(`unexpected notification: ${body}`);
  }
  say(`atendimento.criado of ${idAtendimento} delivered with a valid signature (webhook-id ${headers['webhook-id']})`);

  // The gateway's image carries the store portal: its page and script load, and a link opens a session.
  const origin = new URL(stack.baseUrl).origin;
  const page = await fetch(`${origin}/portal/`, { dispatcher });
  const html = await page.text();
  const script = /src="(assets\/[^"]+\.js)"/.exec(html)?.[1];
  if (page.status !== 200 || !script) throw new Error(`GET /portal/: ${page.status} ${html.slice(0, 200)}`);
  const asset = await fetch(`${origin}/portal/${script}`, { dispatcher });
  await asset.arrayBuffer();
  if (asset.status !== 200) throw new Error(`GET /portal/${script}: ${asset.status}`);
  const link = await api('POST', '/portal/links', { token });
  await api('POST', '/portal/sessoes', { body: { link: new URL(link.url).hash.slice(1) } });
  say(`the store portal served from the gateway's image (${script}), a link opened a session`);
  await dispatcher.close();
} catch (error) {
  failed = true;
  say(`images:check failed: ${error.message}`);
} finally {
  receiver?.close();
  await stack?.stop();
}
if (failed) {
  say(`kept ${dataDir} (the containers' logs in ${join(dataDir, 'logs')})`);
  process.exit(1);
}
rmSync(dataDir, { recursive: true, force: true });
say(`images:check passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);

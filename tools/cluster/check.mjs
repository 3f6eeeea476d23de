// `npm run cluster:check`, after `npm run images`: Trilha on a real single-node Kubernetes
// (deploy/cluster), as a platform team runs it, with the figures docs/DEPLOY.md reports.
//
//  1. The cluster starts, the images are loaded and the umbrella chart is installed with its hooks
//     (topics and migrations Jobs); every Deployment becomes Available; `helm test` passes.
//  2. A store created and a conversation opened through the gateway's Service reach an HTTPS
//     webhook receiver with a valid signature, and the trace of it is in Zipkin, across the
//     gateway, the atendimento service and the delivery service.
//  3. Day-2 operations while conversations are opened without pause (their notifications counted
//     at the receiver by webhook-id): `helm upgrade` of the delivery service's image tag, rolled
//     pod by pod; `kubectl scale` of the delivery service 1 → 3 → 1; a pod of each service
//     deleted; a kill -9 of the delivery service's process. After each, every conversation the API
//     accepted is notified, none lost, none twice; after the kill -9 alone an attempt the killed
//     process made but had not yet recorded may come again, under the same webhook-id (counted).
//  4. `helm rollback` restores the first revision; `helm uninstall` leaves none of the release's
//     objects (the Kafka topics stay in Kafka, as docs/DEPLOY.md says).
// Exits non-zero saying what failed; the cluster's data and logs stay in the printed directory.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { Agent } from 'undici';
import { startCluster } from '../../deploy/cluster/cluster.mjs';
import { run } from '../../deploy/local/processes.mjs';
import { httpsApi } from '../https-api.mjs';
import { imageName } from '../images/images.mjs';
import { runOnSupportedNode } from '../runtime.mjs';
import { PORT_PROFILES, SERVICES, stackPorts } from '../stack.mjs';
import { clusterTools, GATEWAY_HOST, installRelease, NAMESPACE, RELEASE } from './release.mjs';

await runOnSupportedNode();

const root = resolve(import.meta.dirname, '../..');
const say = (line) => process.stderr.write(`» ${line}\n`);
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
/** Conversations opened per second while the operations run, spread over the stores. */
const RATE_PER_SECOND = 20;
const STORES = 8;
/** How long every accepted conversation may take to be notified once an operation ends. */
const DELIVERY_PATIENCE_MS = 120_000;
const ROLLOUT_TIMEOUT = '300s';
/** The tag `helm upgrade` moves the delivery service to: the same build under another name. */
const UPGRADE_TAG = `${version}-upgrade`;

const dataDir = mkdtempSync(join(tmpdir(), 'trilha-cluster-'));
const started = Date.now();
const seconds = (since) => ((Date.now() - since) / 1000).toFixed(1);
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const figures = {};
let cluster;
let receiver;
let failed = false;

async function waitFor(what, condition, timeoutMs) {
  for (const deadline = Date.now() + timeoutMs; !(await condition()); await sleep(250)) {
    if (Date.now() > deadline) throw new Error(`${what} not within ${timeoutMs / 1000} s`);
  }
}

/**
 * The stores' endpoint on the pods' bridge: answers every request 200 and keeps each
 * notification by webhook-id, its signature checked with its store's secret.
 */
function startReceiver(tls, host) {
  const secrets = new Map();
  const byWebhookId = new Map();
  const badSignatures = [];
  const server = createServer({ cert: tls.ca, key: tls.key }, (request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      // The registration's verification comes before its answer tells the store its secret.
      if (JSON.parse(body).evento !== 'webhook.verificacao') {
        const secret = secrets.get(request.url.split('/').pop());
        let notification;
        try {
          notification = new Webhook(secret).verify(body, request.headers);
        } catch (error) {
          badSignatures.push(`${request.url}: ${error.message}`);
          return response.writeHead(400).end();
        }
        const id = request.headers['webhook-id'];
        const seen = byWebhookId.get(id);
        if (seen) seen.count += 1;
        else byWebhookId.set(id, { count: 1, notification });
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise((ready) => server.listen(0, host, () => ready({
    server,
    url: (store) => `https://${host}:${server.address().port}/lojas/${store}`,
    trust: (store, secret) => secrets.set(String(store), secret),
    byWebhookId,
    badSignatures,
    /** Notified conversations: idAtendimento → how many notifications of its creation arrived. */
    created: () => {
      const counts = new Map();
      for (const { count, notification } of byWebhookId.values()) {
        if (notification.evento === 'atendimento.criado') counts.set(notification.data.idAtendimento, count);
      }
      return counts;
    },
  })));
}

/**
 * Opens conversations at RATE_PER_SECOND until stopped. `accepted`: the ones the API answered
 * 2xx; `unanswered`: requests that failed without an answer (the API may or may not have taken them).
 */
function startLoad(api, stores) {
  const accepted = new Set();
  let unanswered = 0;
  /** Answers outside 2xx by status, and the first of each. */
  const refused = {};
  let next = 0;
  const inFlight = new Set();
  const timer = setInterval(() => {
    const store = stores[next++ % stores.length];
    const request = api('POST', '/atendimentos', {
      token: store.token,
      body: { canal: 'chat', tipo: 'duvida', dadosCliente: { nome: 'Maria Silva', telefone: '+5511999990000', email: 'maria@example.com' } },
    }).then(({ idAtendimento }) => accepted.add(idAtendimento), (error) => {
      const status = /: (\d{3}) /.exec(error.message)?.[1];
      if (!status) unanswered += 1;
      else refused[status] = { count: (refused[status]?.count ?? 0) + 1, first: refused[status]?.first ?? error.message.slice(0, 300) };
    });
    inFlight.add(request);
    request.finally(() => inFlight.delete(request));
  }, 1000 / RATE_PER_SECOND);
  return {
    accepted,
    counts: () => ({ accepted: accepted.size, refused: Object.entries(refused).map(([status, { count }]) => `${count} × ${status}`).join(', ') || 'none', unanswered, firstRefusals: Object.values(refused).map(({ first }) => first) }),
    stop: async () => {
      clearInterval(timer);
      await Promise.all(inFlight);
    },
  };
}

try {
  const ports = stackPorts(PORT_PROFILES.cluster);
  cluster = await startCluster({ dataDir, ports, log: say });
  figures.clusterStartSeconds = Number(seconds(started));
  const { helm, kubectl, json } = clusterTools(cluster.kubeconfig, dataDir);

  // 1. Install.
  const release = await installRelease({ cluster, dataDir, version, log: say });
  figures.installSeconds = release.installSeconds;
  const deployments = (await json(['get', 'deployments', '-n', NAMESPACE])).items;
  const unavailable = deployments.filter((deployment) => !deployment.status.conditions?.some((condition) => condition.type === 'Available' && condition.status === 'True'));
  if (deployments.length !== SERVICES.length || unavailable.length) throw new Error(`Deployments not Available: ${unavailable.map((deployment) => deployment.metadata.name).join(', ')}`);
  await helm(['test', RELEASE, '--namespace', NAMESPACE, '--timeout', '120s']);
  say('helm test: passed');

  // 2. One notification end to end, traced.
  const dispatcher = new Agent({ connect: { ca: release.ca, servername: GATEWAY_HOST } });
  const gateway = await release.gatewayUrl();
  const api = httpsApi(gateway, dispatcher);
  receiver = await startReceiver(release, cluster.network.gateway);
  const stores = [];
  for (let index = 0; index < STORES; index += 1) {
    const loja = await api('POST', '/admin/lojas', { headers: { 'x-admin-key': release.adminApiKey }, body: { nome: `Loja do cluster ${index + 1}` } });
    const { token } = await api('GET', `/autenticacao/${loja.codigo}`);
    const { segredo } = await api('POST', '/webhook/novo', { token, body: { url: receiver.url(loja.idLoja) } });
    receiver.trust(loja.idLoja, segredo);
    stores.push({ idLoja: loja.idLoja, token });
  }
  const traceId = randomBytes(16).toString('hex');
  const { idAtendimento } = await api('POST', '/atendimentos', {
    token: stores[0].token,
    headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
    body: { canal: 'chat', tipo: 'duvida', dadosCliente: { nome: 'Maria Silva', telefone: '+5511999990000', email: 'maria@example.com' } },
  });
  await waitFor(`the notification of ${idAtendimento}`, () => receiver.created().has(idAtendimento), 60_000);
  say(`atendimento.criado of ${idAtendimento} delivered through ${gateway} (Service ${GATEWAY_HOST}) with a valid signature`);
  let traced = [];
  await waitFor(`trace ${traceId} in Zipkin across the gateway, atendimento and delivery`, async () => {
    const response = await fetch(`${cluster.zipkin.url}/api/v2/trace/${traceId}`);
    traced = response.ok ? [...new Set((await response.json()).map((span) => span.localEndpoint?.serviceName))] : [];
    return ['api-gateway', 'atendimento-service', 'delivery-service'].every((service) => traced.includes(service));
  }, 60_000);
  say(`trace ${traceId} in Zipkin: ${traced.sort().join(', ')}`);

  // 3. Day-2 operations while events flow.
  const load = startLoad(api, stores);
  const pods = async (service) => (await json(['get', 'pods', '-n', NAMESPACE, '-l', `app.kubernetes.io/name=${service},app.kubernetes.io/component=server`])).items
    .filter((pod) => !pod.metadata.deletionTimestamp);
  const rollout = (service) => kubectl(['rollout', 'status', `deployment/${RELEASE}-${service}`, '-n', NAMESPACE, `--timeout=${ROLLOUT_TIMEOUT}`]);
  /**
   * Runs an operation for at least `minimumMs` of load, then waits until every conversation
   * accepted so far is notified. `redelivers`: whether it may send a notification again (a kill
   * -9 loses the record of the attempts in flight, which are made again under their webhook-id).
   */
  const operation = async (name, act, { minimumMs = 20_000, redelivers = false } = {}) => {
    const since = Date.now();
    const before = load.counts().accepted;
    await Promise.all([act(), sleep(minimumMs)]);
    const accepted = [...load.accepted];
    await waitFor(`notifications of the ${accepted.length} conversations accepted by the end of "${name}"`, () => {
      const created = receiver.created();
      return accepted.every((id) => created.has(id));
    }, DELIVERY_PATIENCE_MS);
    const created = receiver.created();
    const twice = accepted.filter((id) => created.get(id) > 1);
    const { refused, unanswered, firstRefusals } = load.counts();
    say(`${name}: ${accepted.length - before} conversations opened during it (${seconds(since)} s), every one of the ${accepted.length} accepted so far notified, ${twice.length} twice; refused so far: ${refused}; unanswered so far: ${unanswered}`);
    for (const refusal of firstRefusals) say(`  first refusal: ${refusal}`);
    if (twice.length && !redelivers) throw new Error(`${name}: notified twice: ${twice.slice(0, 5).join(', ')}`);
    if (receiver.badSignatures.length) throw new Error(`notifications with a bad signature: ${receiver.badSignatures.slice(0, 5).join('; ')}`);
  };

  await operation('helm upgrade of the delivery service to another image tag', async () => {
    await run('podman', ['tag', `localhost/${imageName('delivery-service', version)}`, `localhost/${imageName('delivery-service', UPGRADE_TAG)}`]);
    await cluster.node.loadImages([`localhost/${imageName('delivery-service', UPGRADE_TAG)}`]);
    const upgradeStarted = Date.now();
    await helm(['upgrade', RELEASE, release.chart, '--namespace', NAMESPACE, '--values', release.valuesFile, '--set', `delivery-service.image.tag=${UPGRADE_TAG}`, '--wait', '--timeout', '10m']);
    figures.upgradeSeconds = Number(seconds(upgradeStarted));
    const images = (await pods('delivery-service')).map((pod) => pod.spec.containers[0].image);
    if (!images.every((image) => image.endsWith(`:${UPGRADE_TAG}`))) throw new Error(`delivery pods after the upgrade: ${images.join(', ')}`);
  });
  await operation('kubectl scale of the delivery service 1 → 3 → 1', async () => {
    await kubectl(['scale', `deployment/${RELEASE}-delivery-service`, '-n', NAMESPACE, '--replicas=3']);
    await rollout('delivery-service');
    await sleep(15_000);
    await kubectl(['scale', `deployment/${RELEASE}-delivery-service`, '-n', NAMESPACE, '--replicas=1']);
    await rollout('delivery-service');
  });
  await operation('a pod of each service deleted', async () => {
    for (const service of SERVICES) {
      const [pod] = await pods(service);
      await kubectl(['delete', 'pod', pod.metadata.name, '-n', NAMESPACE, '--wait=true']);
      await rollout(service);
    }
  });
  await operation('kill -9 of the delivery service\'s process', async () => {
    const [pod] = await pods('delivery-service');
    const containerId = pod.status.containerStatuses[0].containerID.replace(/^containerd:\/\//, '');
    const pid = await cluster.node.containerPid(containerId);
    process.kill(pid, 'SIGKILL');
    await waitFor('the delivery container restarted', async () => {
      const [restarted] = await pods('delivery-service');
      return restarted.status.containerStatuses[0].restartCount > pod.status.containerStatuses[0].restartCount && restarted.status.containerStatuses[0].ready;
    }, 120_000);
  }, { redelivers: true });
  await load.stop();
  figures.notifications = receiver.byWebhookId.size;
  await dispatcher.close();

  // 4. Rollback and uninstall.
  await helm(['rollback', RELEASE, '1', '--namespace', NAMESPACE, '--wait', '--timeout', '10m']);
  const rolledBack = (await pods('delivery-service')).map((pod) => pod.spec.containers[0].image);
  if (!rolledBack.every((image) => image.endsWith(`:${version}`))) throw new Error(`delivery pods after the rollback: ${rolledBack.join(', ')}`);
  say(`helm rollback to revision 1: the delivery service runs ${rolledBack[0]} again`);
  await helm(['uninstall', RELEASE, '--namespace', NAMESPACE, '--wait', '--timeout', '5m']);
  // Pods end after their grace period (the pause before stopping, then a graceful stop).
  let left = [];
  await waitFor('the release\'s objects gone after helm uninstall', async () => {
    left = (await json(['get', 'all,secrets,configmaps,serviceaccounts,networkpolicies,poddisruptionbudgets,jobs', '-n', NAMESPACE, '-l', `app.kubernetes.io/instance=${RELEASE}`])).items;
    return left.length === 0;
  }, 60_000).catch(() => {
    throw new Error(`left after helm uninstall: ${left.map((object) => `${object.kind}/${object.metadata.name}`).join(', ')}`);
  });
  say('helm uninstall: none of the release\'s objects left (the topics stay in Kafka)');
} catch (error) {
  failed = true;
  say(`cluster:check failed: ${error.stack ?? error.message}`);
} finally {
  receiver?.server.close();
  await cluster?.stop();
}
if (failed) {
  say(`kept ${dataDir} (logs of the cluster's parts in ${join(dataDir, 'node')}, ${join(dataDir, 'control-plane')}, ${join(dataDir, 'infra')})`);
  process.exit(1);
}
rmSync(dataDir, { recursive: true, force: true });
say(`cluster:check passed in ${seconds(started)} s: ${JSON.stringify(figures)}`);

// The whole Trilha stack on one machine, without Docker: Kafka, PostgreSQL and Redis from
// deploy/local/infra.mjs, Zipkin from deploy/local/zipkin.mjs, Prometheus with Trilha's alerts
// from deploy/local/prometheus.mjs, the topics, a self-signed certificate, then the four services built
// in dist/. Used by `npm start` (tools/start.mjs) and `npm test` (tools/test.mjs).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { selfSignedCertificate } from '../deploy/local/certificates.mjs';
import { ensureInfraInstalled, startInfra } from '../deploy/local/infra.mjs';
import { startPrometheus } from '../deploy/local/prometheus.mjs';
import { startZipkin } from '../deploy/local/zipkin.mjs';

const root = resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);

export const SERVICES = ['api-gateway', 'tracking-service', 'atendimento-service', 'delivery-service'];

/** The services behind the gateway, reached on their internal ports. */
export const INTERNAL_SERVICES = SERVICES.filter((service) => service !== 'api-gateway');

/** The default ports of `npm start`, `npm test` and `npm run images:check` (README, "Ports"). */
export const PORT_PROFILES = {
  start: { gateway: 8443, kafka: 19092, postgres: 15432, redis: 16379, zipkin: 19411, prometheus: 19090, ops: 18180 },
  test: { gateway: 28443, kafka: 29092, postgres: 25432, redis: 26379, zipkin: 29411, prometheus: 29090, ops: 28180 },
  images: { gateway: 27443, kafka: 27092, postgres: 27432, redis: 27379, zipkin: 27411, prometheus: 27090, ops: 27180 },
  // The cluster's own Kafka, PostgreSQL, Redis and Zipkin (npm run cluster): on the pods' bridge.
  cluster: { gateway: 24443, kafka: 24092, postgres: 24432, redis: 24379, zipkin: 24411, ops: 24180 },
};

/**
 * Ports of a profile. Each can be overridden by its TRILHA_*_PORT variable, and
 * TRILHA_PORT_OFFSET shifts all the defaults at once (two stacks side by side).
 */
export function stackPorts(base) {
  const offset = Number(process.env.TRILHA_PORT_OFFSET ?? 0);
  const pick = (name, fallback) => Number(process.env[`TRILHA_${name}_PORT`] ?? fallback + offset);
  return {
    gateway: pick('GATEWAY', base.gateway),
    kafka: pick('KAFKA', base.kafka),
    kafkaController: pick('KAFKA_CONTROLLER', base.kafka + 1),
    kafkaSaslSsl: pick('KAFKA_SASL_SSL', base.kafka + 2),
    postgres: pick('POSTGRES', base.postgres),
    redis: pick('REDIS', base.redis),
    zipkin: pick('ZIPKIN', base.zipkin),
    ...(base.prometheus && { prometheus: pick('PROMETHEUS', base.prometheus) }),
    ops: Object.fromEntries(SERVICES.map((service, index) => [service, pick(`OPS_${index}`, base.ops + index)])),
    internal: Object.fromEntries(INTERNAL_SERVICES.map((service, index) => [service, pick(`INTERNAL_${index}`, base.ops + 100 + index)])),
    // The Kubernetes control plane `npm test` starts beside the stack (deploy/cluster/control-plane.mjs),
    // and the node of `npm run cluster` (deploy/cluster/node.mjs).
    kubernetes: {
      apiserver: pick('KUBE_APISERVER', base.ops + 200),
      etcd: pick('ETCD', base.ops + 201),
      etcdPeer: pick('ETCD_PEER', base.ops + 202),
      controllerManager: pick('KUBE_CONTROLLER_MANAGER', base.ops + 203),
      scheduler: pick('KUBE_SCHEDULER', base.ops + 204),
      kubelet: pick('KUBELET', base.ops + 205),
      kubeletHealthz: pick('KUBELET_HEALTHZ', base.ops + 206),
      kubeProxyMetrics: pick('KUBE_PROXY_METRICS', base.ops + 207),
      kubeProxyHealthz: pick('KUBE_PROXY_HEALTHZ', base.ops + 208),
      corednsReady: pick('COREDNS_READY', base.ops + 209),
    },
  };
}

/** Secrets of a local stack (or of `npm run cluster`'s release): generated once per data directory, reused after. */
export function localSecrets(dataDir) {
  const file = join(dataDir, 'secrets.json');
  const existing = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const secrets = {
    adminApiKey: `adm_${randomBytes(18).toString('base64url')}`,
    tokenSigningSecret: randomBytes(48).toString('base64url'),
    internalApiToken: randomBytes(32).toString('base64url'),
    webhookSecretKeys: `local1:${randomBytes(32).toString('base64')}`,
    ...existing,
  };
  // A data directory from before a secret existed gets it once, and keeps the others.
  if (Object.keys(secrets).length > Object.keys(existing).length) writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

/** The topics of libs/contracts, as the chart's topics Job creates them (the broker's replication factor). */
async function createTopics(brokers, log) {
  const { ensureTopics } = require(join(root, 'dist/libs/event-store/src/kafka-topics.js'));
  const { TOPIC_SPECS } = require(join(root, 'dist/libs/contracts/src/topics.js'));
  for (const line of await ensureTopics({ brokers: [brokers] }, TOPIC_SPECS, 'trilha-stack')) log(`kafka: ${line}`);
}

/** The environment each service runs with, as a platform team would set it. */
function serviceEnvironments({ infra, zipkin, ports, secrets, tls, logLevel, webhookSettings }) {
  const common = {
    DATABASE_URL: infra.databaseUrl,
    KAFKA_BROKERS: infra.kafkaBrokers,
    LOG_LEVEL: logLevel,
    DB_MIGRATIONS_RUN: 'false',
    // Every port on loopback, as Kafka, PostgreSQL, Redis and Zipkin: nothing of a developer's
    // stack is reachable from the network it is on.
    LISTEN_ADDRESS: '127.0.0.1',
    // Every span to the local Zipkin, a second after it ends (the SDK's default waits five).
    OTEL_EXPORTER_ZIPKIN_ENDPOINT: zipkin.spansUrl,
    OTEL_BSP_SCHEDULE_DELAY: '1000',
  };
  const internalUrl = (service) => `http://127.0.0.1:${ports.internal[service]}`;
  return Object.fromEntries(SERVICES.map((service) => {
    const env = { ...common, OPS_PORT: String(ports.ops[service]), INTERNAL_API_TOKEN: secrets.internalApiToken };
    if (service !== 'api-gateway') env.INTERNAL_PORT = String(ports.internal[service]);
    // linkRastreio and the portal's links point at the gateway, which serves /rastreio/<token>
    // from the tracking service and /portal/ itself.
    if (service === 'tracking-service' || service === 'api-gateway') env.PUBLIC_BASE_URL = `https://localhost:${ports.gateway}`;
    if (service === 'api-gateway') {
      Object.assign(env, {
        PUBLIC_PORT: String(ports.gateway),
        TLS_CERT_FILE: tls.cert,
        TLS_KEY_FILE: tls.key,
        REDIS_URL: infra.redisUrl,
        ADMIN_API_KEY: secrets.adminApiKey,
        TOKEN_SIGNING_SECRET: secrets.tokenSigningSecret,
        TRACKING_SERVICE_URL: internalUrl('tracking-service'),
        ATENDIMENTO_SERVICE_URL: internalUrl('atendimento-service'),
        DELIVERY_SERVICE_URL: internalUrl('delivery-service'),
      });
    }
    if (service === 'delivery-service') {
      Object.assign(env, {
        // Local receivers (tests, a developer's machine) listen on loopback with the stack's
        // own self-signed certificate.
        // Twelve partitions consumed at once, plus the dispatcher's claims and records.
        DATABASE_POOL_SIZE: '20',
        WEBHOOK_ALLOWED_CIDRS: '127.0.0.0/8',
        WEBHOOK_CA_FILE: tls.cert,
        WEBHOOK_SECRET_KEYS: secrets.webhookSecretKeys,
        ...webhookSettings,
      });
    }
    return [service, env];
  }));
}

function runToEnd(command, args, env) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => (code === 0 ? resolvePromise(stderr) : reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`))));
  });
}

async function waitUntilReady(service, port, child, logFile, timeoutMs = 60_000) {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (child.exitCode !== null) {
      throw new Error(`${service} exited with code ${child.exitCode}; see ${logFile}:\n${tail(logFile)}`);
    }
    try {
      const response = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${service} not ready after ${timeoutMs} ms; see ${logFile}:\n${tail(logFile)}`);
}

function tail(file, lines = 20) {
  return existsSync(file) ? readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n') : '(no log)';
}

/** Where a container finds the stack's certificates: outside its /tmp, which is a tmpfs of its own. */
const CONTAINER_TLS_DIR = '/etc/trilha/tls';

/**
 * The command that runs `main.js [args…]` of a service with `env`, and the environment to run it
 * with: node on the build in dist/, or, when the stack runs `images`, a container of the service's
 * image, as a cluster runs it: its own uid, a read-only root filesystem with a writable /tmp, the
 * stack's certificates mounted read-only (owned by the image's uid, as a pod's fsGroup makes a
 * Secret's files readable), the host's network. podman runs it with runc and
 * resource limits lowered to 1,024 files and 4,096 processes: a VM that withholds
 * CAP_SYS_RESOURCE refuses crun and any limit above its own. The container is removed when it
 * stops; a SIGTERM to podman reaches the service.
 */
function serviceCommand(stack, service, env, args = []) {
  if (!stack.images) {
    // TRILHA_SERVICE_NODE_ARGS: extra Node.js arguments for every service, e.g. to profile them.
    const nodeArgs = process.env.TRILHA_SERVICE_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
    return { command: process.execPath, args: [...nodeArgs, join(root, 'dist/apps', service, 'src/main.js'), ...args], env };
  }
  const tlsDir = join(stack.dataDir, 'tls');
  const containerEnv = Object.fromEntries(Object.entries(env).map(([name, value]) => [name, value.replace(tlsDir, CONTAINER_TLS_DIR)]));
  return {
    command: 'podman',
    args: [
      'run', '--rm', '--runtime', 'runc', '--network', 'host', '--read-only', '--tmpfs', '/tmp',
      '--ulimit', 'nofile=1024:1024', '--ulimit', 'nproc=4096:4096', '--volume', `${tlsDir}:${CONTAINER_TLS_DIR}:ro,U`,
      // Each variable by name: podman takes its value from its own environment, so no secret is on a command line.
      ...Object.keys(containerEnv).flatMap((name) => ['--env', name]),
      stack.images(service), ...args,
    ],
    env: containerEnv,
  };
}

/**
 * Starts one service process with its environment; its JSON logs go to logs/<name>.log.
 * Tests use this to start extra replicas or restart a killed one.
 */
export async function startService(stack, service, { name = service, env = {} } = {}) {
  const logFile = join(stack.dataDir, 'logs', `${name}.log`);
  // The service writes straight into its log file: a pipe through this process would stall
  // its (synchronous) log writes whenever this process is busy.
  const out = openSync(logFile, 'a');
  const serviceEnv = { ...stack.env[service], ...env };
  const { command, args, env: commandEnv } = serviceCommand(stack, service, serviceEnv);
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...commandEnv },
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  await waitUntilReady(name, Number(serviceEnv.OPS_PORT), child, logFile);
  return { name, child, logFile, opsPort: Number(serviceEnv.OPS_PORT) };
}

/**
 * Starts everything. Returns what a user or a test needs: the base URL, the admin key, the
 * certificate to trust, each service's environment and log file, and `stop()`.
 * `webhookSettings` (WEBHOOK_* variables) replace the delivery service's defaults (tests compress its times).
 * `scrapeIntervalSeconds`: how often Prometheus scrapes the services and evaluates the alerts (tests: 1 s).
 * `images` (service → image name) runs the services and their migrations as containers of those
 * images instead of node on dist/ (tools/images/check.mjs).
 */
export async function startStack({ dataDir, ports, log = (line) => process.stderr.write(`${line}\n`), fast = false, logLevel = 'info', webhookSettings = {}, images, scrapeIntervalSeconds = 15 }) {
  mkdirSync(join(dataDir, 'logs'), { recursive: true });
  await ensureInfraInstalled({ log });
  // Zipkin and Prometheus start beside Kafka, PostgreSQL and Redis; if one fails, the others stop.
  // Prometheus scrapes the ops ports, which answer once the services are up.
  const started = await Promise.allSettled([
    startInfra({ dataDir: join(dataDir, 'infra'), ports, log, fast }),
    startZipkin({ dataDir: join(dataDir, 'zipkin'), port: ports.zipkin, log }),
    // A profile without a Prometheus port (the benchmarks') runs none: its scrapes would cost them CPU.
    ports.prometheus === undefined
      ? { url: undefined, stop: async () => undefined }
      : startPrometheus({ dataDir: join(dataDir, 'prometheus'), port: ports.prometheus, targets: ports.ops, intervalSeconds: scrapeIntervalSeconds, log }),
  ]);
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    await Promise.all(started.map((result) => result.status === 'fulfilled' && result.value.stop()));
    throw failed.reason;
  }
  const [infra, zipkin, prometheus] = started.map((result) => result.value);
  const processes = [];
  const stack = { dataDir, ports, infra, zipkin, prometheus, processes, images };
  stack.stop = async () => {
    await Promise.all(processes.map((service) => stopProcess(service.child)));
    await Promise.all([infra.stop(), zipkin.stop(), prometheus.stop()]);
  };
  try {
    const secrets = localSecrets(dataDir);
    // The API's self-signed certificate for localhost, created on the first start.
    const tls = selfSignedCertificate(join(dataDir, 'tls'), 'localhost', 'tls: the API certificate');
    stack.env = serviceEnvironments({ infra, zipkin, ports, secrets, tls, logLevel, webhookSettings });
    // Kept so one-off service commands (tools/service-command.mjs) run with the same settings.
    mkdirSync(join(dataDir, 'env'), { recursive: true, mode: 0o700 });
    for (const service of SERVICES) writeFileSync(join(dataDir, 'env', `${service}.json`), JSON.stringify(stack.env[service], null, 2), { mode: 0o600 });
    stack.baseUrl = `https://localhost:${ports.gateway}/v1`;
    stack.adminApiKey = secrets.adminApiKey;
    stack.caFile = tls.cert;
    // The topics and the migrations at once: neither needs the other, the services need both.
    await Promise.all([
      createTopics(infra.kafkaBrokers, log),
      ...SERVICES.map(async (service) => {
        const { command, args, env } = serviceCommand(stack, service, stack.env[service], ['migrate']);
        log((await runToEnd(command, args, env)).trim());
      }),
    ]);
    const results = await Promise.allSettled(SERVICES.map((service) => startService(stack, service)));
    for (const result of results) if (result.status === 'fulfilled') processes.push(result.value);
    const failure = results.find((result) => result.status === 'rejected');
    if (failure) throw failure.reason;
    for (const service of processes) log(`${service.name}: ready (ops http://127.0.0.1:${service.opsPort}, log ${service.logFile})`);
  } catch (error) {
    await stack.stop();
    throw error;
  }
  return stack;
}

export function stopProcess(child, timeoutMs = 10_000) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolvePromise) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolvePromise();
    });
    child.kill('SIGTERM');
  });
}

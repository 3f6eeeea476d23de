/**
 * The configuration contract between the charts and the services: render the umbrella chart with
 * an operator's values whose hosts are the test stack's PostgreSQL, Kafka and Redis, take each
 * container's environment exactly as the chart sets it (secretKeyRefs resolved from the rendered
 * Secrets, or from the Secrets an operator would have created), and run what the pod would run:
 * every Deployment until its /readyz answers 200, the migrations and topics Jobs to a zero exit,
 * the helm test Pod's check against the gateway. A setting a service requires that the chart does
 * not set stops the service at start-up, and fails this test with the service's message.
 *
 * Only what cannot be the same outside a cluster is translated: container ports become free local
 * ports (the same in every variable that names them), a Service's DNS name becomes 127.0.0.1 and
 * the local port behind it, a file mounted from a Secret or ConfigMap becomes a local file, and the
 * image's /app is this repository (main.js is dist/apps/<service>/src/main.js).
 *
 * The processes share the stack's database and Kafka, as replicas of the stack's services would:
 * they join the services' consumer groups for a moment, which is why this runs in the serial
 * phase, and their output goes into the stack's log of their service.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { stringify } from 'yaml';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPod } from 'kubernetes-models/v1/Pod';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import type { IService } from 'kubernetes-models/v1/Service';
import { TOPIC_SPECS } from '@trilha/contracts';
import { createKafka } from '@trilha/event-store';
import { eventually, testStack } from '@trilha/testing';
import { Charts, type K8sObject } from './helm';

const root = resolve(__dirname, '../..');
const stack = testStack();
const NAMESPACE = 'trilha';
/** What deploy/docker/Dockerfile puts in the image's environment. */
const IMAGE_ENV = { NODE_ENV: 'production' };

let charts: Charts;
let scratch: string;
const running: { name: string; child: ChildProcess }[] = [];

beforeAll(() => {
  charts = Charts.prepare();
  scratch = mkdtempSync(join(tmpdir(), 'trilha-helm-contract-'));
}, 120_000);

afterAll(async () => {
  await Promise.all(running.map(({ child }) => stop(child)));
  charts?.remove();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

// --- The cluster, translated to this machine ----------------------------------------------------

/**
 * The next port of a block of the stack's own for the pods' containers, free when chosen. The
 * block lies below the kernel's ephemeral range (32768 and up), so no outgoing connection of the
 * running stack can take a port between its choice here and the process's listen.
 */
let nextPort = stack.ports.gateway + 150;
async function freePort(): Promise<number> {
  for (;;) {
    const port = nextPort++;
    const free = await new Promise<boolean>((done) => {
      const server = createServer();
      server.once('error', () => done(false));
      server.listen(port, '::', () => server.close(() => done(true)));
    });
    if (free) return port;
  }
}

interface Cluster {
  objects: K8sObject[];
  /** Secrets the operator created before installing (name → key → value). */
  existingSecrets: Record<string, Record<string, string>>;
  /** Local files standing for the keys of existing Secrets and ConfigMaps mounted as volumes (name → key → path). */
  existingFiles: Record<string, Record<string, string>>;
  /** Local port of each Deployment's container port: "<deployment>/<port name>" → port. */
  localPorts: Map<string, number>;
}

async function cluster(objects: K8sObject[], existingSecrets: Cluster['existingSecrets'] = {}, existingFiles: Cluster['existingFiles'] = {}): Promise<Cluster> {
  const localPorts = new Map<string, number>();
  for (const deployment of objects.filter((object) => object.kind === 'Deployment') as (K8sObject & IDeployment)[]) {
    for (const port of deployment.spec!.template.spec!.containers[0].ports ?? []) localPorts.set(`${deployment.metadata.name}/${port.name}`, await freePort());
  }
  return { objects, existingSecrets, existingFiles, localPorts };
}

function find<T>(cluster: Cluster, kind: string, name: string): (K8sObject & T) | undefined {
  return cluster.objects.find((object) => object.kind === kind && object.metadata.name === name) as (K8sObject & T) | undefined;
}

function secretValue(cluster: Cluster, name: string, key: string): string | undefined {
  const rendered = find<{ data?: Record<string, string>; stringData?: Record<string, string> }>(cluster, 'Secret', name);
  if (rendered) return rendered.stringData?.[key] ?? (rendered.data?.[key] === undefined ? undefined : Buffer.from(rendered.data[key], 'base64').toString());
  const existing = cluster.existingSecrets[name];
  if (!existing) throw new Error(`Secret ${name} is neither rendered by the chart nor one the operator created`);
  return existing[key];
}

/** The local address of http(s)://<service>:<port>: the Deployment's container port behind that Service port. */
function serviceAddress(cluster: Cluster, host: string, port: number): string | undefined {
  const service = find<IService>(cluster, 'Service', host);
  if (!service) return undefined;
  const servicePort = service.spec!.ports!.find((candidate) => candidate.port === port);
  if (!servicePort) throw new Error(`Service ${host} has no port ${port}`);
  const deployment = (cluster.objects.filter((object) => object.kind === 'Deployment') as (K8sObject & IDeployment)[])
    .find((candidate) => Object.entries(service.spec!.selector!).every(([key, value]) => candidate.spec!.template.metadata!.labels![key] === value));
  const local = deployment && cluster.localPorts.get(`${deployment.metadata.name}/${servicePort.targetPort}`);
  if (!local) throw new Error(`Service ${host}:${port} selects no Deployment port`);
  return `127.0.0.1:${local}`;
}

/** Files mounted into the container: mount path → local directory holding the volume's keys. */
function mountedFiles(cluster: Cluster, pod: IPodSpec, container: IContainer): Map<string, string> {
  const mounts = new Map<string, string>();
  for (const mount of container.volumeMounts ?? []) {
    const volume = pod.volumes!.find((candidate) => candidate.name === mount.name)!;
    if (volume.emptyDir) continue;
    const dir = mkdtempSync(join(scratch, `${mount.name}-`));
    const rendered = volume.configMap && find<{ data: Record<string, string> }>(cluster, 'ConfigMap', volume.configMap.name!);
    if (rendered) {
      for (const [key, value] of Object.entries(rendered.data)) writeFileSync(join(dir, key), value);
    } else if (volume.secret || volume.configMap) {
      const name = volume.secret?.secretName ?? volume.configMap!.name!;
      const files = cluster.existingFiles[name];
      if (!files) throw new Error(`no local files for the volume ${volume.name} (${name}), which the chart does not render`);
      for (const [key, path] of Object.entries(files)) writeFileSync(join(dir, key), readFileSync(path));
    } else {
      throw new Error(`volume ${volume.name}: only Secret, ConfigMap and emptyDir volumes are translated`);
    }
    mounts.set(mount.mountPath, dir);
  }
  return mounts;
}

/**
 * The environment of a container exactly as Kubernetes would give it, then translated: container
 * ports to local ports, Service URLs to local addresses, mounted files to local files.
 */
function containerEnvironment(cluster: Cluster, owner: string, pod: IPodSpec, container: IContainer): Record<string, string> {
  if (container.envFrom?.length) throw new Error(`${owner}: envFrom is not translated`);
  const env: Record<string, string> = {};
  for (const variable of container.env ?? []) {
    const from = variable.valueFrom;
    let value: string | undefined;
    if (!from) value = variable.value ?? '';
    else if (from.secretKeyRef) {
      value = secretValue(cluster, from.secretKeyRef.name!, from.secretKeyRef.key);
      if (value === undefined && !from.secretKeyRef.optional) throw new Error(`${owner}: ${variable.name} refers to ${from.secretKeyRef.name}/${from.secretKeyRef.key}, which does not exist`);
    } else if (from.fieldRef?.fieldPath === 'metadata.name') value = `${owner}-7d9f8c6b5-x2k4q`;
    else if (from.fieldRef?.fieldPath === 'metadata.namespace') value = NAMESPACE;
    else throw new Error(`${owner}: ${variable.name} comes from ${JSON.stringify(from)}, which is not translated`);
    if (value !== undefined) env[variable.name] = value;
  }

  const ports = new Map((container.ports ?? []).map((port) => [String(port.containerPort), String(cluster.localPorts.get(`${owner}/${port.name}`))]));
  const mounts = mountedFiles(cluster, pod, container);
  for (const [name, value] of Object.entries(env)) {
    if (ports.has(value)) env[name] = ports.get(value)!;
    else if (/^https?:\/\//.test(value)) {
      const url = new URL(value);
      const local = serviceAddress(cluster, url.hostname, Number(url.port || (url.protocol === 'https:' ? 443 : 80)));
      if (local) env[name] = `${url.protocol}//${local}${url.pathname === '/' ? '' : url.pathname}${url.search}`;
    } else if (value === '/app/node_modules') env[name] = join(root, 'node_modules');
    else {
      for (const [mountPath, dir] of mounts) if (value.startsWith(`${mountPath}/`)) env[name] = join(dir, value.slice(mountPath.length + 1));
    }
  }
  return { ...IMAGE_ENV, ...env };
}

/** The command a container runs, on this machine: the image's `node /app/main.js` is the service's dist main. */
function commandLine(service: string, pod: IPodSpec, container: IContainer, cluster: Cluster): string[] {
  if (!container.command) return [join(root, 'dist/apps', service, 'src/main.js'), ...(container.args ?? [])];
  const [binary, ...args] = container.command;
  if (binary !== 'node') throw new Error(`${container.name}: runs ${binary}, not node`);
  const mounts = mountedFiles(cluster, pod, container);
  return args.map((arg) => {
    for (const [mountPath, dir] of mounts) if (arg.startsWith(`${mountPath}/`)) return join(dir, arg.slice(mountPath.length + 1));
    return arg;
  });
}

// --- Running the containers -------------------------------------------------------------------

/**
 * Copies a process's output, whole lines at a time, into the stack's log of its service (where the
 * other tests read what that service handled), and keeps it for the failure message.
 */
function logInto(service: string, child: ChildProcess): () => string {
  const file = join(stack.dataDir, 'logs', `${service}.log`);
  const lines: string[] = [];
  let pending = '';
  const write = (chunk: Buffer) => {
    pending += chunk.toString();
    const complete = pending.slice(0, pending.lastIndexOf('\n') + 1);
    pending = pending.slice(complete.length);
    if (!complete) return;
    appendFileSync(file, complete);
    lines.push(...complete.split('\n').filter(Boolean));
  };
  child.stdout!.on('data', write);
  child.stderr!.on('data', write);
  return () => [...lines, pending].slice(-25).join('\n');
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      done();
    });
    child.kill('SIGTERM');
  });
}

/** Starts a Deployment's container and waits for its /readyz. */
async function startDeployment(cluster: Cluster, service: string, name = `${NAMESPACE}-${service}`) {
  const deployment = find<IDeployment>(cluster, 'Deployment', name);
  if (!deployment) throw new Error(`no Deployment ${name}`);
  const pod = deployment.spec!.template.spec!;
  const container = pod.containers[0];
  const env = containerEnvironment(cluster, name, pod, container);
  const child = spawn(process.execPath, commandLine(service, pod, container, cluster), { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = logInto(service, child);
  running.push({ name, child });
  const readyz = `http://127.0.0.1:${cluster.localPorts.get(`${name}/ops`)}/readyz`;
  try {
    await eventually(`${name} ready (${readyz})`, async () => {
      if (child.exitCode !== null) throw new Error(`exited with code ${child.exitCode}`);
      const response = await fetch(readyz).catch(() => undefined);
      return response?.status === 200 || undefined;
    }, 60_000, 200);
  } catch (error) {
    throw new Error(`${name} with the chart's settings: ${(error as Error).message}\n${output()}`);
  }
  return { env, child };
}

/** Runs a Job's (or a test Pod's) container to its end; returns its output. */
function runToEnd(cluster: Cluster, kind: 'Job' | 'Pod', name: string, service: string): { status: number | null; output: string } {
  const object = kind === 'Job' ? find<IJob>(cluster, kind, name)?.spec?.template.spec : find<IPod>(cluster, kind, name)?.spec;
  if (!object) throw new Error(`no ${kind} ${name}`);
  const pod = object as IPodSpec;
  const container = pod.containers[0];
  const result = spawnSync(process.execPath, commandLine(service, pod, container, cluster), {
    cwd: root,
    env: containerEnvironment(cluster, name, pod, container),
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

// --- The operator's values ------------------------------------------------------------------------

/** Values an operator would give to install on the test stack's PostgreSQL, Kafka and Redis. */
function operatorValues(file: string, values: Record<string, unknown>): string {
  const path = join(scratch, file);
  writeFileSync(path, stringify(values));
  return path;
}

/** What the stack's own services are given: its hosts, and the key its webhooks' secrets are stored under. */
const stackHosts = {
  global: { database: { url: stack.infra.databaseUrl }, kafka: { brokers: stack.infra.kafkaBrokers } },
  'api-gateway': { redis: { url: stack.infra.redisUrl } },
  'delivery-service': { webhooks: { secretKeys: stack.env['delivery-service'].WEBHOOK_SECRET_KEYS } },
};

/**
 * What `helm install` and `helm test` run, in their order: the topics Job (with one topic more than
 * the stack has, which it must create), the migrations Jobs, every Deployment until ready, the test
 * Pod. The topic is deleted again after.
 */
async function installAndTest(rendered: Cluster, extraTopic: string): Promise<void> {
  const topics = runToEnd(rendered, 'Job', `${NAMESPACE}-kafka-topics`, 'api-gateway');
  expect(topics).toEqual({ status: 0, output: expect.stringContaining(`${extraTopic}: created, 3 partitions`) });
  for (const spec of TOPIC_SPECS) expect(topics.output).toContain(`${spec.name}: exists, ${spec.partitions} partitions`);

  for (const service of ['api-gateway', 'tracking-service', 'atendimento-service', 'delivery-service']) {
    const migrations = runToEnd(rendered, 'Job', `${NAMESPACE}-${service}-migrations`, service);
    expect({ service, ...migrations }).toEqual({ service, status: 0, output: expect.stringMatching(/schema up to date|applied/) });
  }

  // The services first, as Kubernetes would have them ready before the gateway routes to them.
  for (const service of ['tracking-service', 'atendimento-service', 'delivery-service', 'api-gateway']) await startDeployment(rendered, service);
  const test = runToEnd(rendered, 'Pod', `${NAMESPACE}-api-gateway-test`, 'api-gateway');
  expect(test).toEqual({ status: 0, output: expect.stringMatching(/readyz: 200\n.*openapi\.json: 200/) });

  await Promise.all(running.splice(0).map(({ child }) => stop(child)));
  const admin = createKafka({ brokers: [stack.infra.kafkaBrokers] }, 'helm-contract').admin();
  await admin.connect();
  try {
    await admin.deleteTopics({ topics: [extraTopic] });
  } finally {
    await admin.disconnect();
  }
}

/** The topics of the stack plus one, on the stack's single broker. */
const topicsWith = (extraTopic: string) => ({
  replicationFactor: 1,
  config: { 'retention.ms': '-1', 'cleanup.policy': 'delete' },
  topics: [...TOPIC_SPECS.map(({ name, partitions }) => ({ name, partitions })), { name: extraTopic, partitions: 3 }],
});

describe('the configuration the chart renders starts every service', () => {
  it('with the minimal values: topics Job, migrations Jobs, every service ready, helm test passes', async () => {
    const extraTopic = `helm-contract-${Date.now()}.v1`;
    const values = operatorValues('minimal-on-the-stack.yaml', {
      ...stackHosts,
      // The ingress of this machine is on loopback; the single broker holds one replica.
      'api-gateway': { ...stackHosts['api-gateway'], tls: { trustedProxies: 'loopback' } },
      kafkaTopics: topicsWith(extraTopic),
    });
    const objects = charts.render('trilha', { namespace: NAMESPACE, values: ['ci/minimal-values.yaml', values] });
    await installAndTest(await cluster(objects), extraTopic);
  }, 240_000);

  it('with Kafka over TLS and SASL SCRAM-SHA-512: every process reaches the broker\'s SASL_SSL listener', async () => {
    const extraTopic = `helm-contract-secure-${Date.now()}.v1`;
    const secure = stack.infra.kafkaSaslSsl;
    // ci/kafka-security-values.yaml, pointed at the stack: its broker's SASL_SSL listener, whose
    // user is the one the scenario names (trilha); the webhook receivers are on this machine.
    const values = operatorValues('kafka-security-on-the-stack.yaml', {
      global: { database: stackHosts.global.database, kafka: { brokers: secure.brokers } },
      'api-gateway': { ...stackHosts['api-gateway'], tls: { trustedProxies: 'loopback' } },
      'delivery-service': { webhooks: { ...stackHosts['delivery-service'].webhooks, allowedCidrs: ['127.0.0.0/8'] } },
      kafkaTopics: topicsWith(extraTopic),
    });
    const objects = charts.render('trilha', { namespace: NAMESPACE, values: ['ci/kafka-security-values.yaml', values] });
    const rendered = await cluster(objects, {
      // As the operator created them (ci/kafka-security-values.yaml names them).
      'trilha-kafka-user': { password: secure.password },
    }, {
      'trilha-kafka-cluster-ca-cert': { 'ca.crt': secure.caFile },
      'trilha-webhook-ca': { 'ca-bundle.crt': stack.caFile },
    });
    const delivery = find<IDeployment>(rendered, 'Deployment', `${NAMESPACE}-delivery-service`)!.spec!.template.spec!.containers[0].env!;
    expect(delivery).toContainEqual({ name: 'KAFKA_BROKERS', value: secure.brokers });
    await installAndTest(rendered, extraTopic);
  }, 240_000);

  it('with existing Secrets and TLS served by the gateway itself', async () => {
    const values = operatorValues('existing-secrets-on-the-stack.yaml', {
      global: { kafka: stackHosts.global.kafka },
      'api-gateway': { tls: { trustedProxies: 'loopback' } },
    });
    const objects = charts.render('trilha', { namespace: NAMESPACE, values: ['ci/existing-secrets-values.yaml', values] });
    expect(objects.filter((object) => object.kind === 'Secret')).toEqual([]);
    const minimal = stack.env['api-gateway'];
    const tlsDir = dirname(stack.caFile);
    const rendered = await cluster(objects, {
      // As the operator created them (ci/existing-secrets-values.yaml names them).
      'trilha-secrets': {
        'internal-api-token': minimal.INTERNAL_API_TOKEN,
        'token-signing-secret': minimal.TOKEN_SIGNING_SECRET,
        'webhook-secret-keys': stack.env['delivery-service'].WEBHOOK_SECRET_KEYS,
      },
      'trilha-postgres-app': { uri: stack.infra.databaseUrl },
      'trilha-delivery-postgres': { uri: stack.infra.databaseUrl },
      'trilha-redis': { url: stack.infra.redisUrl },
    }, {
      'trilha-gateway-tls': { 'tls.crt': join(tlsDir, 'localhost.crt'), 'tls.key': join(tlsDir, 'localhost.key') },
    });

    const migrations = runToEnd(rendered, 'Job', `${NAMESPACE}-api-gateway-migrations`, 'api-gateway');
    expect(migrations).toEqual({ status: 0, output: expect.stringMatching(/schema up to date|applied/) });
    const gateway = await startDeployment(rendered, 'api-gateway');
    expect(gateway.env.ADMIN_API_KEY).toBeUndefined();
    expect(gateway.env.TLS_CERT_FILE).toMatch(/tls\.crt$/);
    const test = runToEnd(rendered, 'Pod', `${NAMESPACE}-api-gateway-test`, 'api-gateway');
    expect(test).toEqual({ status: 0, output: expect.stringMatching(/readyz: 200\nhttps:.*openapi\.json: 200/) });
  }, 120_000);
});

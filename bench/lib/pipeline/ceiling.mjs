// The pipeline's ceiling (bench/pipeline-ceiling.mjs, and the same-run ceiling of the benchmarks
// under bench/): the physical limit of this design (a commit with its outbox row → relay → Kafka
// → consumer with its inbox row → HTTPS webhook) on this machine, built from nothing but the
// bare parts, one process per role, on the stack's infrastructure (PostgreSQL with fsync on,
// Kafka, HTTPS on loopback) and none of the platform's code. A benchmark of one part of the
// path runs only that part's role (`roles`):
//   role 1  https-role.mjs     node:https + pg: POST /events commits the event and its outbox row, one transaction;
//   role 2  relay-role.mjs     kafkajs + pg: outbox rows in order (FOR UPDATE SKIP LOCKED, batches) → topic keyed by store, deleted;
//   role 3  consumer-role.mjs  kafkajs + pg + https client: one inbox row committed per message, then POSTed to the receiver;
//   receiver                   ../webhook-receiver-process.mjs (node:https), which records each arrival's time.
// The calling process is the load generator. Latency = arrival at the receiver − the moment the
// request to role 1 was sent, both Date.now() on this machine (1 ms resolution); without role 3,
// role 1's answer. The phases are in ceiling-phases.mjs, their report in ceiling-report.mjs, the
// child processes in ceiling-children.mjs.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { selfSignedCertificate } from '../../../deploy/local/certificates.mjs';
import { startInfra } from '../../../deploy/local/infra.mjs';
import { stackPorts } from '../../../tools/stack.mjs';
import { BASE_PORTS, say, sleep } from '../bench-kit.mjs';
import { machine } from '../machine.mjs';
import { killChildren, startChild, stopChild } from './ceiling-children.mjs';
import { BACKLOG_TIMEOUT_S, PHASES, phaseKit } from './ceiling-phases.mjs';
import { headerLines } from './ceiling-report.mjs';

export { cpuPerEvent } from './ceiling-phases.mjs';
export { ceilingReport } from './ceiling-report.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('pg');
const { Kafka, logLevel } = require('kafkajs');
const { Agent } = require('undici');

/** The ceiling's settings, with their defaults (bench/pipeline-ceiling.mjs --help describes each). */
export const CEILING_DEFAULTS = {
  connections: 64,
  stores: 200,
  partitions: 12,
  batch: 200,
  'poll-ms': 5,
  pool: 16,
  'fetch-min-bytes': 1,
  'fetch-max-wait-ms': 50,
  'consumer-order': 'partition',
  delay: 0,
  payload: 200,
  drain: 15,
};

/** The role processes: each one's name in the CPU figures, its file, and its line in the report. */
const ROLES = {
  https: {
    name: 'role 1 (https + pg)',
    file: 'https-role.mjs',
    describe: (s) => `node:https + pg (pool ${s.pool}), POST /events commits the event and its outbox row, one statement`,
  },
  relay: {
    name: 'role 2 (relay)',
    file: 'relay-role.mjs',
    describe: (s) => `kafkajs + pg, batches of ≤ ${s.batch}, acks=-1, ${s['poll-ms']} ms pause on an empty outbox`,
  },
  consumer: {
    name: 'role 3 (consumer)',
    file: 'consumer-role.mjs',
    describe: (s) => `kafkajs + pg + https, ${s.partitions} partitions concurrently, in order by ${s['consumer-order']}, fetch min ${s['fetch-min-bytes']} B / max wait ${s['fetch-max-wait-ms']} ms, one commit per message, then POST (keep-alive) to a receiver answering ${s.delay ? `after ${s.delay} ms` : 'at once'}`,
  },
};
/** Every role, the whole pipeline: measureCeiling's default. */
export const PIPELINE = Object.keys(ROLES);

/** Bounded: a step that hangs is given up after `ms`. */
const within = (ms, promise) => Promise.race([promise, sleep(ms)]);

/**
 * Measures the ceiling: starts the infrastructure (deploy/local/infra.mjs, durable) in a
 * temporary directory on BASE_PORTS.ceiling, a schema and a topic of its own, the receiver (with
 * role 3) and the `roles` (keys of ROLES, in pipeline order; every one by default); runs `phases`
 * in order (`capacity`: closed loop of `connections` to role 1; `rate`: open loop to role 1 at
 * `rate`, a number or a function of the figures measured so far; `backlog`: `events` produced at
 * once to the topic for role 3); then drops the schema and topic and stops everything, keeping
 * the data directory after a failure or with `keep`. Resolves to { lines (the report, with the
 * date and machine as it started), figures: { capacity?, rate?, backlog? }, clean }.
 * An interrupt stops everything and exits the process with 130.
 */
export async function measureCeiling({ roles = PIPELINE, phases, rate, duration, warmup = 0, events, settings: given = {}, keep = false }) {
  const settings = { ...CEILING_DEFAULTS, ...given };
  const has = Object.fromEntries(PIPELINE.map((role) => [role, roles.includes(role)]));
  for (const phase of phases) {
    if (phase === 'backlog' ? !has.consumer : !has.https) throw new Error(`the ceiling's ${phase} phase needs ${phase === 'backlog' ? 'role 3' : 'role 1'}`);
  }
  const facts = machine();
  const run = newRun(settings, phases.length * (warmup + (duration ?? BACKLOG_TIMEOUT_S) + settings.drain + 30));
  const onSignal = (signal) => {
    say(`${signal}: stopping`);
    void cleanUp(run, true).then(() => process.exit(130));
  };
  const onExit = () => killChildren(run.children);
  process.on('SIGINT', onSignal).on('SIGTERM', onSignal).on('exit', onExit);
  const lifetime = setTimeout(() => run.fail(new Error(`the ceiling exceeded its ${run.lifetimeSeconds} s`)), run.lifetimeSeconds * 1000);
  lifetime.unref();
  try {
    const result = await Promise.race([measure(run, { roles, has, phases, rate, duration, warmup, events, facts }), run.failure]);
    await cleanUp(run, keep);
    return result;
  } catch (error) {
    await cleanUp(run, true);
    throw error;
  } finally {
    clearTimeout(lifetime);
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal).off('exit', onExit);
  }
}

/**
 * One measurement's state: its settings, lifetime (the roles exit after it), data directory,
 * schema and topic; what it starts, for the clean-up (`infra`, `db`, `admin`, `producer`,
 * `dispatcher`, and `children` in the order they stop: the load's side first); the CPU names of
 * the child processes by pid (`names`); and `failure`, rejected by `fail`.
 */
function newRun(settings, phaseSeconds) {
  const suffix = randomBytes(4).toString('hex');
  const run = {
    settings,
    lifetimeSeconds: Math.ceil(240 + phaseSeconds),
    dataDir: mkdtempSync(join(tmpdir(), 'trilha-bench-ceiling-')),
    suffix,
    schema: `ceiling_${suffix}`,
    topic: `ceiling.events.${suffix}`,
    children: [],
    names: new Map(),
    stopping: false,
  };
  run.failure = new Promise((_, reject) => (run.fail = reject));
  run.failure.catch(() => undefined);
  return run;
}

/** Starts everything, runs the phases in order, and resolves to { lines, figures, clean }. */
async function measure(run, { roles, has, phases, rate, duration, warmup, events, facts }) {
  const server = await startInfrastructure(run);
  const receiver = has.consumer ? await startReceiver(run) : { arrivals: new Map(), twice: 0 };
  const started = await startRoles(run, roles, receiver.port);
  /** The processes whose CPU makes the ceiling's cost per event. */
  const costGroups = [...roles.map((role) => ROLES[role].name), 'postgres', ...(has.relay || has.consumer ? ['kafka'] : [])];
  run.dispatcher = new Agent({ connect: { ca: readFileSync(run.tls.cert) }, connections: Math.max(256, run.settings.connections), pipelining: 1, keepAliveTimeout: 30_000, headersTimeout: 30_000, bodyTimeout: 30_000 });
  const kit = phaseKit({ run, has, receiver, url: `https://127.0.0.1:${started.https?.message.port}/events`, costGroups });

  const lines = headerLines({ roles: roles.map((role) => ROLES[role]), facts, server, settings: run.settings });
  const figures = {};
  let clean = true;
  for (const phase of phases) {
    const measured = await PHASES[phase](kit, { rate, duration, warmup, events, figures });
    figures[phase] = measured.figure;
    lines.push(...measured.lines);
    clean &&= measured.clean;
  }
  return { lines, figures, clean };
}

/** Starts the durable infrastructure, the TLS certificate, the schema and the topic; resolves to PostgreSQL's settings and version. */
async function startInfrastructure(run) {
  const { dataDir, schema, topic, settings } = run;
  const all = stackPorts(BASE_PORTS.ceiling);
  const ports = { kafka: all.kafka, kafkaController: all.kafkaController, kafkaSaslSsl: all.kafkaSaslSsl, postgres: all.postgres, redis: all.redis };
  say(`ceiling: starting the infrastructure in ${dataDir} (kafka :${ports.kafka}, postgres :${ports.postgres}, durable: fsync on)`);
  run.infra = await startInfra({ dataDir: join(dataDir, 'infra'), ports, log: say, fast: false });
  run.tls = selfSignedCertificate(join(dataDir, 'tls'), 'localhost', 'tls: the benchmark certificate');

  run.db = new Client({ connectionString: run.infra.databaseUrl });
  await run.db.connect();
  const server = (await run.db.query(`SELECT current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS sync, split_part(version(), ' ', 2) AS version`)).rows[0];
  if (server.fsync !== 'on' || server.sync !== 'on') throw new Error(`PostgreSQL is not durable (fsync ${server.fsync}, synchronous_commit ${server.sync})`);
  await run.db.query(`
    CREATE SCHEMA ${schema};
    CREATE TABLE ${schema}.events (id uuid PRIMARY KEY, store integer NOT NULL, payload jsonb NOT NULL, occurred_at timestamptz NOT NULL DEFAULT clock_timestamp());
    CREATE TABLE ${schema}.outbox (position bigserial PRIMARY KEY, event_id uuid NOT NULL, store integer NOT NULL, payload jsonb NOT NULL);
    CREATE TABLE ${schema}.inbox (event_id uuid PRIMARY KEY, store integer NOT NULL, processed_at timestamptz NOT NULL DEFAULT now());`);
  run.kafka = new Kafka({ brokers: [run.infra.kafkaBrokers], clientId: 'ceiling', logLevel: logLevel.ERROR });
  run.admin = run.kafka.admin();
  await run.admin.connect();
  await run.admin.createTopics({ topics: [{ topic, numPartitions: settings.partitions, replicationFactor: 1 }], waitForLeaders: true });
  say(`ceiling: schema ${schema} and topic ${topic} (${settings.partitions} partitions) created`);
  return server;
}

/**
 * Starts the receiver (role 3's webhook target); resolves to its `port`, its `arrivals` (event
 * id → Date.now() at arrival), how many arrived `twice`, and `flush()`.
 */
async function startReceiver(run) {
  const { child, message: ready } = await startChild(run, 'receiver', '../webhook-receiver-process.mjs', [run.tls.cert, run.tls.key, String(run.settings.delay)], (message) => message?.port !== undefined, 'disconnect');
  run.names.set(child.pid, 'receiver');
  const flushed = [];
  const receiver = {
    port: ready.port,
    arrivals: new Map(),
    twice: 0,
    /** Everything that reached the receiver so far is in `arrivals` (the receiver reports every 100 ms). */
    flush: () => within(2000, new Promise((resolve) => {
      flushed.push(resolve);
      child.send('flush');
    })),
  };
  child.on('message', (message) => {
    for (const [id, at] of message.arrivals ?? []) {
      if (receiver.arrivals.has(id)) receiver.twice += 1;
      else receiver.arrivals.set(id, at);
    }
    if (message.flushed) flushed.shift()?.();
  });
  return receiver;
}

/** Starts the `roles` from the end of the pipeline to its start; resolves to each one's child and ready message, by role. */
async function startRoles(run, roles, receiverPort) {
  const { settings, infra, schema, topic, tls, lifetimeSeconds } = run;
  const common = { databaseUrl: infra.databaseUrl, schema, brokers: infra.kafkaBrokers, topic };
  const roleSettings = {
    consumer: {
      ...common,
      groupId: `ceiling-${run.suffix}`,
      partitions: settings.partitions,
      order: settings['consumer-order'],
      maxSockets: settings['consumer-order'] === 'store' ? settings.stores : settings.partitions,
      fetchMinBytes: settings['fetch-min-bytes'],
      fetchMaxWaitMs: settings['fetch-max-wait-ms'],
      receiverUrl: `https://127.0.0.1:${receiverPort}/events`,
      certFile: tls.cert,
    },
    relay: { ...common, batch: settings.batch, pollMs: settings['poll-ms'] },
    https: { ...common, certFile: tls.cert, keyFile: tls.key, pool: settings.pool },
  };
  const started = {};
  for (const role of [...roles].reverse()) {
    const { name, file } = ROLES[role];
    say(`ceiling: starting ${name}`);
    started[role] = await startChild(run, name, `./${file}`, [JSON.stringify({ ...roleSettings[role], lifetimeSeconds })], (message) => message?.ready === true);
    run.names.set(started[role].child.pid, name);
  }
  return started;
}

/** Stops everything (once), drops the schema and topic, stops the infrastructure; keeps the data directory with `keepData`. */
function cleanUp(run, keepData) {
  run.cleaned ??= stopAll(run, keepData);
  return run.cleaned;
}

async function stopAll(run, keepData) {
  const { schema, topic, dataDir } = run;
  run.stopping = true;
  await run.dispatcher?.close().catch(() => undefined);
  for (const child of run.children) await stopChild(child);
  if (run.db) {
    await within(10_000, run.db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)).catch((error) => say(`dropping schema ${schema} failed: ${error.message}`));
    await within(5000, run.db.end()).catch(() => undefined);
  }
  await run.producer?.disconnect().catch(() => undefined);
  if (run.admin) {
    await within(10_000, run.admin.deleteTopics({ topics: [topic], timeout: 5000 })).catch((error) => say(`deleting topic ${topic} failed: ${error.message}`));
    await within(5000, run.admin.disconnect()).catch(() => undefined);
  }
  if (run.infra) {
    say('stopping the ceiling\'s infrastructure');
    await within(30_000, run.infra.stop()).catch((error) => say(`stop failed: ${error.message}`));
  }
  if (keepData) say(`kept ${dataDir} (logs in ${join(dataDir, 'infra')})`);
  else rmSync(dataDir, { recursive: true, force: true });
}

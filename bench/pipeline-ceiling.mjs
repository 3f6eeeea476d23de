// Benchmark: the pipeline's ceiling — the physical limit of this design (a commit with its
// outbox row → relay → Kafka → consumer with its inbox row → HTTPS webhook) on this machine,
// built from nothing but the bare parts, one process per role, on the same infrastructure as the
// stack (PostgreSQL with fsync on, Kafka, HTTPS on loopback) and none of the platform's code.
//
//   node bench/pipeline-ceiling.mjs [--mode=both|rate|capacity --rate=200 --duration=20 --warmup=5 --connections=64 ...]
//   node bench/pipeline-ceiling.mjs --help
//
// It starts only the infrastructure (deploy/local/infra.mjs: Kafka, PostgreSQL durable, Redis
// idle), creates a schema and a topic of its own, and starts each role as a child process
// (bench/lib/pipeline/), so each one's CPU is measured apart:
//   role 1  https-role.mjs     node:https + pg: POST /events commits the event and its outbox row, one transaction;
//   role 2  relay-role.mjs     kafkajs + pg: outbox rows in order (FOR UPDATE SKIP LOCKED, batches) → topic keyed by store, deleted;
//   role 3  consumer-role.mjs  kafkajs + pg + https client: one inbox row committed per message, then POSTed to the receiver;
//   receiver                   lib/webhook-receiver-process.mjs (node:https), which records each arrival's time.
// This process is the load generator (lib/load-loops.mjs). Latency = arrival at the receiver −
// the moment the request to role 1 was sent, both Date.now() on this machine (1 ms resolution).
// Phases: `rate` (open loop at --rate: latency, and CPU per event of every process) and
// `capacity` (closed loop of --connections: events/s that reach the receiver at saturation);
// `both` runs rate, then capacity. The schema and topic are dropped at the end, the infrastructure
// stopped and its data directory removed (kept after a failure, an interrupt or --keep).
import { fork } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localhostCertificate } from '../deploy/local/certificates.mjs';
import { startInfra } from '../deploy/local/infra.mjs';
import { stackPorts } from '../tools/stack.mjs';
import { BASE_PORTS, parseArgs, say, sleep } from './lib/bench-kit.mjs';
import { latencyLine } from './lib/latency.mjs';
import { closedLoop, openLoop } from './lib/load-loops.mjs';
import { cpuMeter, describeMachine, machine } from './lib/machine.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('pg');
const { Kafka, logLevel } = require('kafkajs');
const { Agent, request } = require('undici');

const DEFAULTS = {
  mode: 'both',
  rate: 200,
  duration: 20,
  warmup: 5,
  connections: 64,
  stores: 200,
  partitions: 12,
  batch: 200,
  'poll-ms': 5,
  pool: 16,
  'fetch-min-bytes': 1,
  'fetch-max-wait-ms': 50,
  payload: 200,
  drain: 15,
  keep: false,
  help: false,
};

const HELP = `Usage: node bench/pipeline-ceiling.mjs [options]

The ceiling of the event pipeline on this machine: bare parts, one process per role, on the
stack's own infrastructure (PostgreSQL with fsync on, Kafka, HTTPS on loopback).
  role 1: HTTPS server (node:https + pg), a request commits an event row and its outbox row
  role 2: relay (kafkajs + pg), outbox → Kafka topic keyed by store, in order, batched
  role 3: consumer (kafkajs + pg + https), an inbox row per message, then POST to the receiver
  receiver: node:https, records arrival time; latency = request sent → arrival at the receiver

Options (defaults in brackets):
  --mode=both|rate|capacity  rate: open loop at --rate (latency, CPU per event); capacity:
                             closed loop (events/s at saturation); both: rate, then capacity [${DEFAULTS.mode}]
  --rate=N                   events/s offered in the rate phase [${DEFAULTS.rate}]
  --duration=S               measured seconds of each phase [${DEFAULTS.duration}]
  --warmup=S                 warm-up seconds before each phase's measurement (excluded) [${DEFAULTS.warmup}]
  --connections=N            closed-loop connections in the capacity phase [${DEFAULTS.connections}]
  --stores=N                 distinct stores (Kafka keys) [${DEFAULTS.stores}]
  --partitions=N             partitions of the topic; role 3 consumes them all concurrently [${DEFAULTS.partitions}]
  --batch=N                  role 2: outbox rows per read and per produce request [${DEFAULTS.batch}]
  --poll-ms=N                role 2: pause after reading an empty outbox [${DEFAULTS['poll-ms']}]
  --pool=N                   role 1: PostgreSQL connections [${DEFAULTS.pool}]
  --fetch-min-bytes=N        role 3: bytes a fetch waits for (the platform uses 1024) [${DEFAULTS['fetch-min-bytes']}]
  --fetch-max-wait-ms=N      role 3: longest a fetch waits for them [${DEFAULTS['fetch-max-wait-ms']}]
  --payload=N                padding bytes in each event's JSON [${DEFAULTS.payload}]
  --drain=S                  longest wait for the last events to reach the receiver after a phase [${DEFAULTS.drain}]
  --keep                     keep the data directory (PostgreSQL, Kafka, logs) at the end
  --help                     this text

Ports: the infrastructure's base ports in bench/lib/bench-kit.mjs (BASE_PORTS.ceiling), shifted
by TRILHA_PORT_OFFSET; the roles and the receiver listen on 127.0.0.1, on ports of the system's.
`;

if (process.argv.slice(2).some((arg) => arg === '--help' || arg === '-h' || arg.startsWith('--help='))) {
  process.stdout.write(HELP);
  process.exit(0);
}
const args = parseArgs(DEFAULTS);
const badOption = (message) => {
  say(`${message} (see --help)`);
  process.exit(2);
};
if (!['both', 'rate', 'capacity'].includes(args.mode)) badOption(`--mode is one of both, rate, capacity (got ${args.mode})`);
for (const key of ['rate', 'duration', 'connections', 'stores', 'partitions', 'batch', 'pool', 'fetch-max-wait-ms']) {
  if (!(args[key] > 0)) badOption(`--${key} must be above 0`);
}
for (const key of ['warmup', 'poll-ms', 'fetch-min-bytes', 'payload', 'drain']) if (!(args[key] >= 0)) badOption(`--${key} must be 0 or more`);
const phases = args.mode === 'both' ? ['rate', 'capacity'] : [args.mode];

// Every process of the benchmark ends by this time, however it fares: set-up (the
// infrastructure, the consumer's group) takes well under 4 minutes, each phase its warm-up, its
// measurement and its drain.
const LIFETIME_SECONDS = Math.ceil(240 + phases.length * (args.warmup + args.duration + args.drain + 30));
const READY_TIMEOUT_MS = 90_000;

const facts = machine();
say(`machine: ${describeMachine(facts)}, load average ${facts.loadAverage}`);
const dataDir = mkdtempSync(join(tmpdir(), 'trilha-bench-ceiling-'));
const suffix = randomBytes(4).toString('hex');
const schema = `ceiling_${suffix}`;
const topic = `ceiling.events.${suffix}`;

// ---------------------------------------------------------------------------------------------
// the processes, and stopping them all

/** The role processes and the receiver, in the order they stop: the load's side first. */
const children = [];
let infra;
let db;
let admin;
let stopping;

/** Asks a child to stop (a role: 'stop'; the receiver: the channel closed), and kills it after 8 s. */
async function stopChild({ name, child, stopBy }) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  if (!child.connected) child.kill('SIGTERM');
  else if (stopBy === 'disconnect') child.disconnect();
  else child.send('stop');
  const timer = setTimeout(() => {
    say(`${name} did not stop in 8 s, killing it`);
    child.kill('SIGKILL');
  }, 8000);
  await exited;
  clearTimeout(timer);
}

/** Bounded: a step that hangs is given up after `ms`. */
const within = (ms, promise) => Promise.race([promise, sleep(ms)]);

/** Stops everything (once), drops the schema and topic, stops the infrastructure and exits. */
function shutdown(code, keepData) {
  stopping ??= (async () => {
    for (const child of children) await stopChild(child);
    if (db) {
      await within(10_000, db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)).catch((error) => say(`dropping schema ${schema} failed: ${error.message}`));
      await within(5000, db.end()).catch(() => undefined);
    }
    if (admin) {
      await within(10_000, admin.deleteTopics({ topics: [topic], timeout: 5000 })).catch((error) => say(`deleting topic ${topic} failed: ${error.message}`));
      await within(5000, admin.disconnect()).catch(() => undefined);
    }
    if (infra) {
      say('stopping the infrastructure');
      await within(30_000, infra.stop()).catch((error) => say(`stop failed: ${error.message}`));
    }
    if (keepData) say(`kept ${dataDir} (logs in ${join(dataDir, 'infra')})`);
    else rmSync(dataDir, { recursive: true, force: true });
    process.exit(code);
  })();
  return stopping;
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    say(`${signal}: stopping`);
    void shutdown(130, true);
  });
}
// Should this process end any other way, its children do not outlive it.
process.on('exit', () => {
  for (const { child } of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
setTimeout(() => {
  say(`the run exceeded its ${LIFETIME_SECONDS} s, stopping`);
  void shutdown(1, true);
}, LIFETIME_SECONDS * 1000).unref();

/**
 * Forks `file` (relative to bench/), named `name` in the CPU figures, and resolves to the child
 * and the first message it sends that `isReady` accepts. Exiting before the shutdown stops the run.
 * `stopBy`: how it is asked to stop, a 'stop' message (the roles) or closing its channel ('disconnect').
 */
function startChild(name, file, argv, isReady, stopBy = 'message') {
  const child = fork(new URL(file, import.meta.url), argv, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.unshift({ name, child, stopBy });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} was not ready in ${READY_TIMEOUT_MS / 1000} s`)), READY_TIMEOUT_MS);
    const onMessage = (message) => {
      if (!isReady(message)) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve({ child, message });
    };
    child.on('message', onMessage);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (stopping) return;
      const error = new Error(`${name} exited (${signal ?? `code ${code}`})`);
      reject(error);
      say(`${error.message}; stopping`);
      void shutdown(1, true);
    });
  });
}

const startRole = (name, file, settings) =>
  startChild(name, `./lib/pipeline/${file}`, [JSON.stringify({ ...settings, lifetimeSeconds: LIFETIME_SECONDS })], (message) => message?.ready === true);

// ---------------------------------------------------------------------------------------------
// the run

async function main() {
  const all = stackPorts(BASE_PORTS.ceiling);
  const ports = { kafka: all.kafka, kafkaController: all.kafkaController, kafkaSaslSsl: all.kafkaSaslSsl, postgres: all.postgres, redis: all.redis };
  say(`starting the infrastructure in ${dataDir} (kafka :${ports.kafka}, postgres :${ports.postgres}, durable: fsync on)`);
  infra = await startInfra({ dataDir: join(dataDir, 'infra'), ports, log: say, fast: false });
  const tls = localhostCertificate(join(dataDir, 'tls'), 'localhost', 'tls: the benchmark certificate');

  db = new Client({ connectionString: infra.databaseUrl });
  await db.connect();
  const settingsRow = (await db.query(`SELECT current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS sync, split_part(version(), ' ', 2) AS version`)).rows[0];
  if (settingsRow.fsync !== 'on' || settingsRow.sync !== 'on') throw new Error(`PostgreSQL is not durable (fsync ${settingsRow.fsync}, synchronous_commit ${settingsRow.sync})`);
  await db.query(`
    CREATE SCHEMA ${schema};
    CREATE TABLE ${schema}.events (id uuid PRIMARY KEY, store integer NOT NULL, payload jsonb NOT NULL, occurred_at timestamptz NOT NULL DEFAULT clock_timestamp());
    CREATE TABLE ${schema}.outbox (position bigserial PRIMARY KEY, event_id uuid NOT NULL, store integer NOT NULL, payload jsonb NOT NULL);
    CREATE TABLE ${schema}.inbox (event_id uuid PRIMARY KEY, store integer NOT NULL, processed_at timestamptz NOT NULL DEFAULT now());`);
  admin = new Kafka({ brokers: [infra.kafkaBrokers], clientId: 'ceiling-admin', logLevel: logLevel.ERROR }).admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: args.partitions, replicationFactor: 1 }], waitForLeaders: true });
  say(`schema ${schema} and topic ${topic} (${args.partitions} partitions) created`);

  // The receiver, then the roles from the end of the pipeline to its start.
  const receiver = await startChild('receiver', './lib/webhook-receiver-process.mjs', [tls.cert, tls.key, '0'], (message) => message?.port !== undefined, 'disconnect');
  const arrivals = new Map();
  let twice = 0;
  const flushed = [];
  receiver.child.on('message', (message) => {
    for (const [id, at] of message.arrivals ?? []) {
      if (arrivals.has(id)) twice += 1;
      else arrivals.set(id, at);
    }
    if (message.flushed) flushed.shift()?.();
  });
  /** Everything that reached the receiver so far is in `arrivals` (the receiver reports every 100 ms). */
  const flushReceiver = () => within(2000, new Promise((resolve) => {
    flushed.push(resolve);
    receiver.child.send('flush');
  }));

  const common = { databaseUrl: infra.databaseUrl, schema, brokers: infra.kafkaBrokers, topic };
  say('starting role 3 (consumer): joining its group');
  const consumer = await startRole('role 3 (consumer)', 'consumer-role.mjs', {
    ...common,
    groupId: `ceiling-${suffix}`,
    partitions: args.partitions,
    fetchMinBytes: args['fetch-min-bytes'],
    fetchMaxWaitMs: args['fetch-max-wait-ms'],
    receiverUrl: `https://127.0.0.1:${receiver.message.port}/events`,
    certFile: tls.cert,
  });
  const relay = await startRole('role 2 (relay)', 'relay-role.mjs', { ...common, batch: args.batch, pollMs: args['poll-ms'] });
  const server = await startRole('role 1 (https + pg)', 'https-role.mjs', { ...common, certFile: tls.cert, keyFile: tls.key, pool: args.pool });
  const roleNames = ['role 1 (https + pg)', 'role 2 (relay)', 'role 3 (consumer)'];
  const names = new Map([[server.child.pid, roleNames[0]], [relay.child.pid, roleNames[1]], [consumer.child.pid, roleNames[2]], [receiver.child.pid, 'receiver']]);
  // cpuMeter reads the infrastructure's pid files under <dataDir>/infra; the roles are `names`.
  const meter = () => cpuMeter({ processes: [], dataDir }, names);

  const dispatcher = new Agent({ connect: { ca: readFileSync(tls.cert) }, connections: Math.max(256, args.connections), pipelining: 1, keepAliveTimeout: 30_000, headersTimeout: 30_000, bodyTimeout: 30_000 });
  const url = `https://127.0.0.1:${server.message.port}/events`;
  const pad = 'x'.repeat(args.payload);
  let sequence = 0;
  /** One request to role 1: resolves to its status, the event's id and when it was sent. */
  async function fire() {
    const index = sequence++;
    const id = randomUUID();
    const at = Date.now();
    const response = await request(url, {
      method: 'POST',
      dispatcher,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id, store: 1 + (index % args.stores), sentAt: at, pad }),
    });
    await response.body.dump();
    return { status: response.statusCode, id, at };
  }
  /** Waits (up to --drain seconds) until every id in `ids` reached the receiver. */
  async function drain(ids) {
    const until = Date.now() + args.drain * 1000;
    do {
      await flushReceiver();
      if (ids.every((id) => arrivals.has(id))) return;
      await sleep(200);
    } while (Date.now() < until);
  }
  const backlog = async () => (await db.query(`SELECT (SELECT count(*) FROM ${schema}.outbox)::int AS outbox, (SELECT count(*) FROM ${schema}.inbox)::int AS inbox`)).rows[0];

  const lines = [
    '',
    'Pipeline ceiling: bare parts, one process per role — HTTPS + commit (event and outbox row) → relay → Kafka → consumer (inbox row) → HTTPS POST',
    `  date            ${facts.date}`,
    `  machine         ${describeMachine(facts)}; load average before start ${facts.loadAverage}`,
    `  infrastructure  PostgreSQL ${settingsRow.version} (fsync on, synchronous_commit on), Kafka one broker, topic of ${args.partitions} partitions keyed by ${args.stores} stores, ${args.payload} B padding per event`,
    `  roles           1: node:https + pg (pool ${args.pool}), one statement per request; 2: relay, batches of ≤ ${args.batch}, acks=-1, ${args['poll-ms']} ms pause on an empty outbox;`,
    `                  3: consumer, ${args.partitions} partitions concurrently, fetch min ${args['fetch-min-bytes']} B / max wait ${args['fetch-max-wait-ms']} ms, one commit per message, then POST (keep-alive)`,
  ];
  let clean = true;

  if (phases.includes('rate')) {
    say(`rate phase: ${args.rate} events/s for ${args.warmup + args.duration} s (${args.warmup} s warm-up, excluded)`);
    const cpu = meter();
    const measured = [];
    const loop = await openLoop({
      rate: args.rate,
      seconds: args.duration,
      warmupSeconds: args.warmup,
      send: async (i, isMeasured) => {
        const sent = await fire();
        if (sent.status === 202 && isMeasured) measured.push(sent);
        return sent.status;
      },
      onWarmedUp: cpu.start,
      progress: ({ sent, inFlight }) => `sent ${sent}, in flight ${inFlight}, received ${arrivals.size}`,
    });
    const used = cpu.stop();
    await drain(measured.map((sent) => sent.id));
    const latencies = measured.filter((sent) => arrivals.has(sent.id)).map((sent) => arrivals.get(sent.id) - sent.at);
    const missing = measured.length - latencies.length;
    const refused = loop.requests - (loop.statuses.get(202) ?? 0);
    const perEvent = (group) => ((used.cores.get(group) ?? 0) * used.seconds * 1000) / Math.max(1, measured.length);
    const pipelineGroups = [...roleNames, 'postgres', 'kafka'];
    const pipelineMs = pipelineGroups.reduce((sum, group) => sum + perEvent(group), 0);
    const aroundMs = ['receiver', 'benchmark (load generator)', 'redis'].reduce((sum, group) => sum + perEvent(group), 0);
    clean &&= missing === 0 && refused === 0 && loop.errors.size === 0;
    lines.push(
      `Fixed rate (open loop)`,
      `  offered load    ${args.rate} events/s for ${args.duration} s after ${args.warmup} s warm-up`,
      `  achieved rate   ${(loop.requests / loop.sendSeconds).toFixed(1)} events/s sent in the measured window (${loop.requests} in ${loop.sendSeconds.toFixed(1)} s), ${refused} not answered 202${loop.errors.size ? `, errors ${[...loop.errors].map(([e, n]) => `${e}×${n}`).join(', ')}` : ''}`,
      `  received        ${latencies.length} of ${measured.length} committed, ${missing} missing after ${args.drain} s, ${twice} received twice (whole run so far)`,
      `  latency         request sent → received: ${latencyLine(latencies)}`,
      `  role 1 answers  ${latencyLine(loop.latencies)}`,
      `  CPU (measured)  ${used.text}`,
      `  CPU per event   ${pipelineGroups.map((group) => `${group} ${perEvent(group).toFixed(3)} ms`).join(', ')}`,
      `                  pipeline total ${pipelineMs.toFixed(3)} ms; with the receiver, the load generator and Redis ${(pipelineMs + aroundMs).toFixed(3)} ms (${measured.length} events in ${used.seconds.toFixed(1)} s)`,
    );
  }

  if (phases.includes('capacity')) {
    say(`capacity phase: closed loop, ${args.connections} connections, ${args.warmup + args.duration} s (${args.warmup} s warm-up, excluded)`);
    const cpu = meter();
    const accepted = [];
    let windowStart = 0;
    const loop = await closedLoop({
      connections: args.connections,
      seconds: args.duration,
      warmupSeconds: args.warmup,
      send: async () => {
        const sent = await fire();
        if (sent.status === 202) accepted.push(sent.id);
        return sent.status;
      },
      onWarmedUp: () => {
        windowStart = Date.now();
        cpu.start();
      },
    });
    const used = cpu.stop();
    const windowEnd = windowStart + loop.elapsed * 1000;
    await flushReceiver();
    const left = await backlog();
    const notYet = accepted.filter((id) => !arrivals.has(id)).length;
    let delivered = 0;
    for (const at of arrivals.values()) if (at >= windowStart && at < windowEnd) delivered += 1;
    const acceptedRate = (loop.statuses.get(202) ?? 0) / loop.elapsed;
    const deliveredRate = delivered / loop.elapsed;
    say(`capacity phase over; waiting up to ${args.drain} s for the ${notYet} events not yet received`);
    await drain(accepted);
    const missing = accepted.filter((id) => !arrivals.has(id)).length;
    clean &&= missing === 0 && loop.errors.size === 0;
    const bottleneck = deliveredRate < acceptedRate * 0.95 ? 'behind role 1 (relay, Kafka or consumer): the backlog grew' : 'role 1 and what it shares with the rest (the machine\'s cores, PostgreSQL)';
    lines.push(
      `Capacity (closed loop, ${args.connections} connections, ${args.duration} s after ${args.warmup} s warm-up)`,
      `  accepted        ${acceptedRate.toFixed(0)} events/s committed by role 1 (${loop.statuses.get(202) ?? 0} in ${loop.elapsed.toFixed(1)} s); answers ${latencyLine(loop.latencies)}${loop.errors.size ? `; errors ${[...loop.errors].map(([e, n]) => `${e}×${n}`).join(', ')}` : ''}`,
      `  delivered       ${deliveredRate.toFixed(0)} events/s reached the receiver in the same window (${delivered})`,
      `  capacity        ${Math.min(acceptedRate, deliveredRate).toFixed(0)} events/s end to end; limit: ${bottleneck}`,
      `  backlog at end  ${left.outbox} in the outbox, ${notYet} accepted not yet received; ${missing} still missing after ${args.drain} s`,
      `  CPU (measured)  ${used.text}`,
    );
  }

  lines.push('');
  process.stdout.write(lines.join('\n'));
  await dispatcher.close().catch(() => undefined);
  return clean;
}

main().then(
  (clean) => shutdown(clean ? 0 : 1, args.keep),
  (error) => {
    say(`benchmark failed: ${error.stack ?? error.message}`);
    return shutdown(1, true);
  },
);

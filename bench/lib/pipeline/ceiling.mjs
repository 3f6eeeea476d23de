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
// role 1's answer.
import { fork } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localhostCertificate } from '../../../deploy/local/certificates.mjs';
import { startInfra } from '../../../deploy/local/infra.mjs';
import { stackPorts } from '../../../tools/stack.mjs';
import { BASE_PORTS, say, sleep } from '../bench-kit.mjs';
import { latencyLine, steadyRate } from '../latency.mjs';
import { closedLoop, openLoop } from '../load-loops.mjs';
import { cpuMeter, describeMachine, machine } from '../machine.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('pg');
const { Kafka, logLevel, Partitioners } = require('kafkajs');
const { Agent, request } = require('undici');

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
const READY_TIMEOUT_MS = 90_000;
const BACKLOG_TIMEOUT_S = 300;

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
  const lifetimeSeconds = Math.ceil(240 + phases.length * (warmup + (duration ?? BACKLOG_TIMEOUT_S) + settings.drain + 30));
  const dataDir = mkdtempSync(join(tmpdir(), 'trilha-bench-ceiling-'));
  const suffix = randomBytes(4).toString('hex');
  const schema = `ceiling_${suffix}`;
  const topic = `ceiling.events.${suffix}`;
  /** The role processes and the receiver, in the order they stop: the load's side first. */
  const children = [];
  let infra;
  let db;
  let admin;
  let producer;
  let dispatcher;
  let stopping = false;
  let failed;
  const failure = new Promise((_, reject) => (failed = reject));
  failure.catch(() => undefined);

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

  let cleaned;
  /** Stops everything (once), drops the schema and topic, stops the infrastructure. */
  const cleanUp = (keepData) => (cleaned ??= (async () => {
    stopping = true;
    await dispatcher?.close().catch(() => undefined);
    for (const child of children) await stopChild(child);
    if (db) {
      await within(10_000, db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)).catch((error) => say(`dropping schema ${schema} failed: ${error.message}`));
      await within(5000, db.end()).catch(() => undefined);
    }
    await producer?.disconnect().catch(() => undefined);
    if (admin) {
      await within(10_000, admin.deleteTopics({ topics: [topic], timeout: 5000 })).catch((error) => say(`deleting topic ${topic} failed: ${error.message}`));
      await within(5000, admin.disconnect()).catch(() => undefined);
    }
    if (infra) {
      say('stopping the ceiling\'s infrastructure');
      await within(30_000, infra.stop()).catch((error) => say(`stop failed: ${error.message}`));
    }
    if (keepData) say(`kept ${dataDir} (logs in ${join(dataDir, 'infra')})`);
    else rmSync(dataDir, { recursive: true, force: true });
  })());
  const onSignal = (signal) => {
    say(`${signal}: stopping`);
    void cleanUp(true).then(() => process.exit(130));
  };
  const killChildren = () => {
    for (const { child } of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.on('SIGINT', onSignal).on('SIGTERM', onSignal).on('exit', killChildren);
  const lifetime = setTimeout(() => failed(new Error(`the ceiling exceeded its ${lifetimeSeconds} s`)), lifetimeSeconds * 1000);
  lifetime.unref();

  /**
   * Forks `file` (relative to this folder), named `name` in the CPU figures, and resolves to the
   * child and the first message it sends that `isReady` accepts. Exiting before the clean-up fails
   * the measurement. `stopBy`: a 'stop' message (the roles) or closing its channel ('disconnect').
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
        failed(error);
      });
    });
  }
  const startRole = (name, file, roleSettings) =>
    startChild(name, `./${file}`, [JSON.stringify({ ...roleSettings, lifetimeSeconds })], (message) => message?.ready === true);

  async function measure() {
    const all = stackPorts(BASE_PORTS.ceiling);
    const ports = { kafka: all.kafka, kafkaController: all.kafkaController, kafkaSaslSsl: all.kafkaSaslSsl, postgres: all.postgres, redis: all.redis };
    say(`ceiling: starting the infrastructure in ${dataDir} (kafka :${ports.kafka}, postgres :${ports.postgres}, durable: fsync on)`);
    infra = await startInfra({ dataDir: join(dataDir, 'infra'), ports, log: say, fast: false });
    const tls = localhostCertificate(join(dataDir, 'tls'), 'localhost', 'tls: the benchmark certificate');

    db = new Client({ connectionString: infra.databaseUrl });
    await db.connect();
    const server = (await db.query(`SELECT current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS sync, split_part(version(), ' ', 2) AS version`)).rows[0];
    if (server.fsync !== 'on' || server.sync !== 'on') throw new Error(`PostgreSQL is not durable (fsync ${server.fsync}, synchronous_commit ${server.sync})`);
    await db.query(`
      CREATE SCHEMA ${schema};
      CREATE TABLE ${schema}.events (id uuid PRIMARY KEY, store integer NOT NULL, payload jsonb NOT NULL, occurred_at timestamptz NOT NULL DEFAULT clock_timestamp());
      CREATE TABLE ${schema}.outbox (position bigserial PRIMARY KEY, event_id uuid NOT NULL, store integer NOT NULL, payload jsonb NOT NULL);
      CREATE TABLE ${schema}.inbox (event_id uuid PRIMARY KEY, store integer NOT NULL, processed_at timestamptz NOT NULL DEFAULT now());`);
    const kafka = new Kafka({ brokers: [infra.kafkaBrokers], clientId: 'ceiling', logLevel: logLevel.ERROR });
    admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: settings.partitions, replicationFactor: 1 }], waitForLeaders: true });
    say(`ceiling: schema ${schema} and topic ${topic} (${settings.partitions} partitions) created`);

    // The receiver, then the roles from the end of the pipeline to its start.
    const arrivals = new Map();
    let twice = 0;
    const flushed = [];
    const names = new Map();
    let receiver;
    if (has.consumer) {
      receiver = await startChild('receiver', '../webhook-receiver-process.mjs', [tls.cert, tls.key, String(settings.delay)], (message) => message?.port !== undefined, 'disconnect');
      names.set(receiver.child.pid, 'receiver');
      receiver.child.on('message', (message) => {
        for (const [id, at] of message.arrivals ?? []) {
          if (arrivals.has(id)) twice += 1;
          else arrivals.set(id, at);
        }
        if (message.flushed) flushed.shift()?.();
      });
    }
    /** Everything that reached the receiver so far is in `arrivals` (the receiver reports every 100 ms). */
    const flushReceiver = () => receiver && within(2000, new Promise((resolve) => {
      flushed.push(resolve);
      receiver.child.send('flush');
    }));

    const common = { databaseUrl: infra.databaseUrl, schema, brokers: infra.kafkaBrokers, topic };
    const roleSettings = {
      consumer: {
        ...common,
        groupId: `ceiling-${suffix}`,
        partitions: settings.partitions,
        order: settings['consumer-order'],
        maxSockets: settings['consumer-order'] === 'store' ? settings.stores : settings.partitions,
        fetchMinBytes: settings['fetch-min-bytes'],
        fetchMaxWaitMs: settings['fetch-max-wait-ms'],
        receiverUrl: `https://127.0.0.1:${receiver?.message.port}/events`,
        certFile: tls.cert,
      },
      relay: { ...common, batch: settings.batch, pollMs: settings['poll-ms'] },
      https: { ...common, certFile: tls.cert, keyFile: tls.key, pool: settings.pool },
    };
    const started = {};
    for (const role of [...roles].reverse()) {
      say(`ceiling: starting ${ROLES[role].name}`);
      started[role] = await startRole(ROLES[role].name, ROLES[role].file, roleSettings[role]);
      names.set(started[role].child.pid, ROLES[role].name);
    }
    // cpuMeter reads the infrastructure's pid files under <dataDir>/infra; the roles are `names`.
    const meter = () => cpuMeter({ processes: [], dataDir }, names);
    /** The processes whose CPU makes the ceiling's cost per event. */
    const costGroups = [...roles.map((role) => ROLES[role].name), 'postgres', ...(has.relay || has.consumer ? ['kafka'] : [])];

    dispatcher = new Agent({ connect: { ca: readFileSync(tls.cert) }, connections: Math.max(256, settings.connections), pipelining: 1, keepAliveTimeout: 30_000, headersTimeout: 30_000, bodyTimeout: 30_000 });
    const url = `https://127.0.0.1:${started.https?.message.port}/events`;
    const pad = 'x'.repeat(settings.payload);
    let sequence = 0;
    /** The next event: its id and its JSON. */
    const nextEvent = () => {
      const id = randomUUID();
      const store = 1 + (sequence++ % settings.stores);
      return { id, store, body: JSON.stringify({ id, store, sentAt: Date.now(), pad }) };
    };
    /** One request to role 1: resolves to its status, the event's id and when it was sent. */
    async function fire() {
      const { id, body } = nextEvent();
      const at = Date.now();
      const response = await request(url, { method: 'POST', dispatcher, headers: { 'content-type': 'application/json' }, body });
      await response.body.dump();
      return { status: response.statusCode, id, at };
    }
    /** Waits (up to `seconds`) until every id in `ids` reached the receiver. */
    async function drain(ids, seconds = settings.drain) {
      const until = Date.now() + seconds * 1000;
      do {
        await flushReceiver();
        if (ids.every((id) => arrivals.has(id))) return;
        await sleep(200);
      } while (Date.now() < until);
    }
    const outboxLeft = async () => (await db.query(`SELECT count(*)::int AS n FROM ${schema}.outbox`)).rows[0].n;

    /** Milliseconds from each event's commit (its INSERT's clock_timestamp) to role 3's inbox transaction, PostgreSQL's clock. */
    const consumedAfter = async (ids) => (await db.query(
      `SELECT extract(epoch FROM i.processed_at - e.occurred_at) * 1000 AS ms FROM ${schema}.events e JOIN ${schema}.inbox i ON i.event_id = e.id WHERE e.id = ANY($1::uuid[])`,
      [ids],
    )).rows.map((row) => Number(row.ms));

    const lines = [
      `Ceiling: bare parts, one process per role — ${roles.map((role) => ROLES[role].name).join(' → ')}`,
      `  date            ${facts.date}`,
      `  machine         ${describeMachine(facts)}; load average before start ${facts.loadAverage}`,
      `  infrastructure  PostgreSQL ${server.version} (fsync on, synchronous_commit on), Kafka one broker, topic of ${settings.partitions} partitions keyed by ${settings.stores} stores, ${settings.payload} B padding per event`,
      ...roles.map((role) => `  ${ROLES[role].name.padEnd(19)} ${ROLES[role].describe(settings)}`),
    ];
    const figures = {};
    let clean = true;

    for (const phase of phases) {
      if (phase === 'backlog') {
        say(`ceiling backlog phase: ${events} events produced at once to the topic, role 3 delivers them`);
        producer ??= kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, allowAutoTopicCreation: false });
        await producer.connect();
        const cpu = meter();
        cpu.start();
        const ids = [];
        for (let from = 0; from < events; from += 1000) {
          const batch = Array.from({ length: Math.min(1000, events - from) }, nextEvent);
          ids.push(...batch.map((event) => event.id));
          await producer.send({ topic, acks: -1, messages: batch.map(({ store, body }) => ({ key: String(store), value: body })) });
        }
        await drain(ids, BACKLOG_TIMEOUT_S);
        const used = cpu.stop();
        const times = ids.filter((id) => arrivals.has(id)).map((id) => arrivals.get(id));
        const missing = ids.length - times.length;
        const flow = steadyRate(times);
        clean &&= missing === 0 && twice === 0;
        figures.backlog = { rate: flow.rate, missing, twice, used };
        lines.push(
          `Backlog (${events} events produced at once to the topic, keyed by store)`,
          `  delivered       ${times.length} of ${events} (${missing} missing${missing ? ` after ${BACKLOG_TIMEOUT_S} s` : ''}, ${twice} received twice)`,
          `  throughput      ${flow.rate.toFixed(0)} deliveries/s between 10 % and 90 % of the events; ${flow.line}`,
          `  CPU (whole run) ${used.text}`,
        );
      } else if (phase === 'rate') {
        const offered = typeof rate === 'function' ? rate(figures) : rate;
        say(`ceiling rate phase: ${offered} events/s for ${warmup + duration} s (${warmup} s warm-up, excluded)`);
        const cpu = meter();
        const measured = [];
        const loop = await openLoop({
          rate: offered,
          seconds: duration,
          warmupSeconds: warmup,
          send: async (i, isMeasured) => {
            const sent = await fire();
            if (sent.status === 202 && isMeasured) measured.push(sent);
            return sent.status;
          },
          onWarmedUp: cpu.start,
          progress: ({ sent, inFlight }) => `sent ${sent}, in flight ${inFlight}${has.consumer ? `, received ${arrivals.size}` : ''}`,
        });
        const used = cpu.stop();
        const ids = measured.map((sent) => sent.id);
        if (has.consumer) await drain(ids);
        // Without role 3 the path ends at role 1's answer.
        const latencies = has.consumer ? measured.filter((sent) => arrivals.has(sent.id)).map((sent) => arrivals.get(sent.id) - sent.at) : loop.latencies;
        const consumed = has.consumer ? await consumedAfter(ids) : [];
        const missing = has.consumer ? measured.length - latencies.length : 0;
        const refused = loop.requests - (loop.statuses.get(202) ?? 0);
        const perEvent = cpuPerEvent(used, measured.length);
        clean &&= missing === 0 && refused === 0 && loop.errors.size === 0;
        figures.rate = { offered, latencies, consumed, answers: loop.latencies, missing, twice, perEvent, pipelineMs: sum(perEvent, costGroups), used };
        lines.push(
          `Fixed rate (open loop)`,
          `  offered load    ${offered} events/s for ${duration} s after ${warmup} s warm-up`,
          `  achieved rate   ${(loop.requests / loop.sendSeconds).toFixed(1)} events/s sent in the measured window (${loop.requests} in ${loop.sendSeconds.toFixed(1)} s), ${refused} not answered 202${loop.errors.size ? `, errors ${[...loop.errors].map(([e, n]) => `${e}×${n}`).join(', ')}` : ''}`,
          ...(has.consumer ? [
            `  received        ${latencies.length} of ${measured.length} committed, ${missing} missing after ${settings.drain} s, ${twice} received twice (whole run so far)`,
            `  latency         request sent → received: ${latencyLine(latencies)}`,
            `  consumed        commit → role 3's inbox row: ${latencyLine(consumed)} (processed_at − occurred_at, PostgreSQL's clock)`,
          ] : []),
          `  role 1 answers  ${latencyLine(loop.latencies)}`,
          `  CPU (measured)  ${used.text}`,
          `  CPU per event   ${costGroups.map((group) => `${group} ${(perEvent.get(group) ?? 0).toFixed(3)} ms`).join(', ')}`,
          `                  total ${figures.rate.pipelineMs.toFixed(3)} ms${has.consumer ? `; with the receiver ${(figures.rate.pipelineMs + (perEvent.get('receiver') ?? 0)).toFixed(3)} ms` : ''} (${measured.length} events in ${used.seconds.toFixed(1)} s)`,
        );
      } else {
        say(`ceiling capacity phase: closed loop, ${settings.connections} connections, ${warmup + duration} s (${warmup} s warm-up, excluded)`);
        const cpu = meter();
        const accepted = [];
        let windowStart = 0;
        const loop = await closedLoop({
          connections: settings.connections,
          seconds: duration,
          warmupSeconds: warmup,
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
        const acceptedRate = (loop.statuses.get(202) ?? 0) / loop.elapsed;
        const answers = `answers ${latencyLine(loop.latencies)}${loop.errors.size ? `; errors ${[...loop.errors].map(([e, n]) => `${e}×${n}`).join(', ')}` : ''}`;
        lines.push(
          `Capacity (closed loop, ${settings.connections} connections, ${duration} s after ${warmup} s warm-up)`,
          `  accepted        ${acceptedRate.toFixed(0)} events/s committed by role 1 (${loop.statuses.get(202) ?? 0} in ${loop.elapsed.toFixed(1)} s); ${answers}`,
        );
        if (!has.consumer) {
          clean &&= loop.errors.size === 0;
          figures.capacity = { capacity: acceptedRate, acceptedRate, latencies: loop.latencies, used };
          lines.push(`  CPU (measured)  ${used.text}`);
          continue;
        }
        await flushReceiver();
        const left = await outboxLeft();
        const notYet = accepted.filter((id) => !arrivals.has(id)).length;
        let delivered = 0;
        for (const at of arrivals.values()) if (at >= windowStart && at < windowEnd) delivered += 1;
        const deliveredRate = delivered / loop.elapsed;
        say(`ceiling capacity phase over; waiting up to ${settings.drain} s for the ${notYet} events not yet received`);
        await drain(accepted);
        const missing = accepted.filter((id) => !arrivals.has(id)).length;
        clean &&= missing === 0 && loop.errors.size === 0;
        figures.capacity = { capacity: Math.min(acceptedRate, deliveredRate), acceptedRate, deliveredRate, latencies: loop.latencies, used };
        const limit = deliveredRate < acceptedRate * 0.95 ? 'behind role 1 (relay, Kafka or consumer): the backlog grew' : 'role 1 and what it shares with the rest (the machine\'s cores, PostgreSQL)';
        lines.push(
          `  delivered       ${deliveredRate.toFixed(0)} events/s reached the receiver in the same window (${delivered})`,
          `  capacity        ${figures.capacity.capacity.toFixed(0)} events/s end to end; limit: ${limit}`,
          `  backlog at end  ${left} in the outbox, ${notYet} accepted not yet received; ${missing} still missing after ${settings.drain} s`,
          `  CPU (measured)  ${used.text}`,
        );
      }
    }
    return { lines, figures, clean };
  }

  try {
    const result = await Promise.race([measure(), failure]);
    await cleanUp(keep);
    return result;
  } catch (error) {
    await cleanUp(true);
    throw error;
  } finally {
    clearTimeout(lifetime);
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal).off('exit', killChildren);
  }
}

/** Milliseconds of CPU per event of each process group, from what cpuMeter measured over `events`. */
export function cpuPerEvent(used, events) {
  return new Map([...used.cores].map(([group, cores]) => [group, (cores * used.seconds * 1000) / Math.max(1, events)]));
}

const sum = (perEvent, groups) => groups.reduce((total, group) => total + (perEvent.get(group) ?? 0), 0);

/** The ceiling's report, then each of `comparisons` ([label, text]: a figure beside the ceiling's, with its ratio). */
export const ceilingReport = (ceiling, comparisons) => [
  '',
  ...ceiling.lines,
  '',
  'Against the ceiling (same run)',
  ...comparisons.map(([label, text]) => `  ${label.padEnd(15)} ${text}`),
];

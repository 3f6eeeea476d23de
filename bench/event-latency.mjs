// Benchmark: one event from commit in the api-gateway to a consumer in another service
// (delivery-service), under a steady open-loop load.
//
//   Target: p50 ≤ 20 ms, p99 ≤ 100 ms at 500 events/s, on a 2-core machine with the whole
//   stack running (docs/BENCHMARKS.md).
//
//   npm run bench:events [-- --rate=500 --duration=30 --warmup=5 --stores=200 --keep]
//
// It starts its own durable stack (fast: false, as in production) in a temporary directory on
// its own ports, creates stores through the HTTPS API, then calls
// POST /admin/lojas/{idLoja}/aplicativo/remover at a fixed rate (each call appends one
// `aplicativo.removido` event that the delivery-service consumes). Latency of an event is
// delivery.inbox.processed_at − gateway.events.occurred_at, both from PostgreSQL's clock.
// Progress goes to stderr every 5 s; the report goes to stdout.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { stackPorts, startStack } from '../tools/stack.mjs';

const require = createRequire(import.meta.url);
const { Agent, request } = require('undici');
const { Client } = require('pg');

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, value ?? 'true'];
  }),
);
const RATE = Number(args.rate ?? 500); // events per second
const DURATION_S = Number(args.duration ?? 30); // measured seconds
const WARMUP_S = Number(args.warmup ?? 5); // excluded from the figures
const STORES = Number(args.stores ?? 200);
const KEEP = args.keep === 'true';
const TARGET = { p50: 20, p99: 100 };
const CONSUMER = 'delivery.lojas-conhecidas';
const DRAIN_TIMEOUT_MS = 10_000;

const say = (line) => process.stderr.write(`» ${line}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function machine() {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? 'unknown';
  let nproc = availableParallelism();
  try {
    nproc = Number(execFileSync('nproc', { encoding: 'utf8' }).trim());
  } catch {
    /* keep availableParallelism */
  }
  return {
    date: new Date().toISOString(),
    cores: nproc,
    cpu: model,
    memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    node: process.version,
  };
}

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

/**
 * CPU seconds used so far by each process tree under this one (services, Kafka, PostgreSQL…),
 * by every other process, and by the machine. A process's own time plus the time of its
 * children that have exited (PostgreSQL's short-lived workers); for other processes, their own time only.
 */
function cpuSnapshot(names) {
  const tick = 100; // USER_HZ
  const procs = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const own = (Number(fields[11]) + Number(fields[12])) / tick;
      const cpu = own + (Number(fields[13]) + Number(fields[14])) / tick;
      procs.set(Number(entry), { ppid: Number(fields[1]), cpu, own, comm });
    } catch {
      /* gone */
    }
  }
  const groupOf = (pid) => {
    for (let p = pid, hops = 0; p && hops < 30; p = procs.get(p)?.ppid, hops += 1) {
      if (names.has(p)) return names.get(p);
      if (p === process.pid) return 'benchmark (load generator)';
    }
    return null;
  };
  const groups = new Map();
  const outside = new Map(); // pid → { comm, cpu }
  for (const [pid, { cpu, own, comm }] of procs) {
    const group = groupOf(pid);
    if (group) groups.set(group, (groups.get(group) ?? 0) + cpu);
    else outside.set(pid, { comm, cpu: own });
  }
  const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return { groups, outside, busy: (user + nice + system + irq + softirq + steal) / tick, idle: (idle + iowait) / tick, iowait: iowait / tick };
}

function processNames(stack) {
  const names = new Map(stack.processes.map((service) => [service.child.pid, service.name]));
  const infraDir = realpathSync(join(stack.dataDir, 'infra'));
  for (const name of ['kafka', 'postgres', 'redis']) {
    try {
      names.set(Number(readFileSync(join(infraDir, `${name}.pid`), 'utf8').trim()), name);
    } catch {
      /* not there */
    }
  }
  return names;
}

/** Kafka's CreateTime of each event (set by the relay's producer when it sends the batch), read after the run. */
async function producerTimestamps(brokers, eventIds) {
  const { Kafka, logLevel } = require('kafkajs');
  const consumer = new Kafka({ brokers: [brokers], clientId: 'bench', logLevel: logLevel.NOTHING }).consumer({ groupId: `bench-${process.pid}-${Date.now()}` });
  const wanted = new Set(eventIds);
  const found = new Map();
  await consumer.connect();
  try {
    await consumer.subscribe({ topic: 'lojas.events.v1', fromBeginning: true });
    let resolveDone;
    const done = new Promise((r) => (resolveDone = r));
    await consumer.run({
      eachMessage: async ({ message }) => {
        const id = message.headers?.['event-id']?.toString();
        if (id && wanted.has(id)) found.set(id, Number(message.timestamp));
        if (found.size === wanted.size) resolveDone();
      },
    });
    await Promise.race([done, sleep(15_000)]);
  } finally {
    await consumer.disconnect();
  }
  return found;
}

const fmt = (ms) => (Number.isFinite(ms) ? `${ms.toFixed(1)} ms` : 'n/a');

// ---------------------------------------------------------------------------------------------
// stack

// The admin routes are rate-limited per client address (600/min by default); this benchmark is
// about event latency, so the gateway it starts gets a limit far above the load.
process.env.RATE_LIMIT_DEFAULT_PER_MINUTE ??= '100000000';

const dataDir = mkdtempSync(join(tmpdir(), 'trilha-bench-events-'));
// Below Linux's ephemeral range (32768–60999), where an outgoing connection may hold any port for
// a while; TRILHA_PORT_OFFSET shifts them all, like the stack's.
const ports = stackPorts({ gateway: 20943, kafka: 20992, postgres: 20932, redis: 20979, ops: 20980 });
let stack;
let stopping = null;
let dispatcher;
let db;

async function shutdown(code) {
  if (stopping) return stopping;
  stopping = (async () => {
    await db?.end().catch(() => undefined);
    await dispatcher?.close().catch(() => undefined);
    if (stack) {
      say('stopping the benchmark stack');
      await stack.stop().catch((error) => say(`stop failed: ${error.message}`));
    }
    if (code === 0 && !KEEP) rmSync(dataDir, { recursive: true, force: true });
    else say(`kept ${dataDir} (logs in ${join(dataDir, 'logs')})`);
    process.exit(code);
  })();
  return stopping;
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    say(`${signal}: aborting`);
    void shutdown(130);
  });
}

// ---------------------------------------------------------------------------------------------
// load

async function createStores(baseUrl, adminKey, count) {
  const ids = [];
  let next = 0;
  async function worker() {
    while (next < count) {
      const n = next++;
      const response = await request(`${baseUrl}/admin/lojas`, {
        method: 'POST',
        dispatcher,
        headers: { 'content-type': 'application/json', 'x-admin-key': adminKey },
        body: JSON.stringify({ nome: `Bench ${n}` }),
      });
      const body = await response.body.json();
      if (response.statusCode !== 201) throw new Error(`POST /admin/lojas: ${response.statusCode} ${JSON.stringify(body)}`);
      ids.push(body.idLoja);
    }
  }
  await Promise.all(Array.from({ length: 8 }, worker));
  return ids;
}

/**
 * Open loop: request i is due at start + i/rate, whether or not earlier ones have answered.
 * A 1 ms timer fires every request that is due, so a slow server never lowers the offered rate.
 */
function runLoad({ baseUrl, adminKey, storeIds, rate, seconds, warmupSeconds, onTick }) {
  const total = Math.round(rate * seconds);
  const firstMeasured = Math.round(rate * warmupSeconds);
  // Measured requests: sent after the warm-up. Their events are found by (store, dataRemocao).
  const measured = { sent: 0, accepted: 0, nonAccepted: 0, idLoja: [], dataRemocao: [], httpMs: [] };
  const stats = { sent: 0, done: 0, accepted: 0, other: new Map(), errors: new Map(), inFlight: 0, maxInFlight: 0, measured };
  const start = performance.now();
  return new Promise((resolvePromise) => {
    let finishedSending = false;
    const maybeDone = () => {
      if (finishedSending && stats.inFlight === 0) resolvePromise({ ...stats, start });
    };
    const fire = (i) => {
      const idLoja = storeIds[i % storeIds.length];
      const sentAt = performance.now();
      const isMeasured = i >= firstMeasured;
      if (isMeasured && measured.sent === 0) measured.start = sentAt;
      if (isMeasured) measured.sent += 1;
      stats.sent += 1;
      stats.inFlight += 1;
      stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
      request(`${baseUrl}/admin/lojas/${idLoja}/aplicativo/remover`, { method: 'POST', dispatcher, headers: { 'x-admin-key': adminKey } })
        .then(async (response) => {
          if (response.statusCode === 202) {
            const body = await response.body.json();
            stats.accepted += 1;
            if (isMeasured) {
              measured.accepted += 1;
              measured.idLoja.push(body.idLoja);
              measured.dataRemocao.push(body.dataRemocao);
            }
          } else {
            await response.body.dump();
            stats.other.set(response.statusCode, (stats.other.get(response.statusCode) ?? 0) + 1);
            if (isMeasured) measured.nonAccepted += 1;
          }
        })
        .catch((error) => {
          const key = error.code ?? error.message;
          stats.errors.set(key, (stats.errors.get(key) ?? 0) + 1);
          if (isMeasured) measured.nonAccepted += 1;
        })
        .finally(() => {
          if (isMeasured) {
            measured.lastAnswer = performance.now();
            measured.httpMs.push(measured.lastAnswer - sentAt);
          }
          stats.inFlight -= 1;
          stats.done += 1;
          maybeDone();
        });
    };
    let i = 0;
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate) + 1);
      while (i < due) fire(i++);
      onTick?.(stats, performance.now() - start);
      if (i >= total) {
        clearInterval(timer);
        measured.end = performance.now();
        finishedSending = true;
        maybeDone();
      }
    }, 1);
  });
}

// ---------------------------------------------------------------------------------------------
// main

async function main() {
  const facts = machine();
  say(`machine: ${facts.cores} cores, ${facts.cpu}, ${facts.memory}, node ${facts.node}`);
  say(`starting a durable stack in ${dataDir} (gateway :${ports.gateway}, kafka :${ports.kafka}, postgres :${ports.postgres})`);
  stack = await startStack({ dataDir, ports, fast: false, logLevel: 'warn', log: (line) => say(line) });
  dispatcher = new Agent({ connect: { ca: readFileSync(stack.caFile) }, connections: 256, keepAliveTimeout: 30_000 });
  db = new Client({ connectionString: stack.infra.databaseUrl });
  await db.connect();
  const names = processNames(stack);

  say(`creating ${STORES} stores`);
  const storeIds = await createStores(stack.baseUrl, stack.adminApiKey, STORES);
  // Let the creation events reach every consumer before the clock starts.
  await sleep(2000);

  const totalSeconds = WARMUP_S + DURATION_S;
  say(`load: ${RATE} events/s for ${totalSeconds} s (${WARMUP_S} s warm-up, excluded) over ${storeIds.length} stores`);
  let cpuFrom = null;
  let lastTick = 0;
  let lastSent = 0;
  let lastDone = 0;
  const result = await runLoad({
    baseUrl: stack.baseUrl,
    adminKey: stack.adminApiKey,
    storeIds,
    rate: RATE,
    seconds: totalSeconds,
    warmupSeconds: WARMUP_S,
    onTick: (stats, elapsedMs) => {
      if (!cpuFrom && elapsedMs >= WARMUP_S * 1000) cpuFrom = { at: performance.now(), ...cpuSnapshot(names) };
      if (elapsedMs - lastTick >= 5000) {
        const seconds = (elapsedMs - lastTick) / 1000;
        const rate = (stats.sent - lastSent) / seconds;
        const answered = (stats.done - lastDone) / seconds;
        lastTick = elapsedMs;
        lastSent = stats.sent;
        lastDone = stats.done;
        const other = [...stats.other].map(([s, n]) => `${s}×${n}`).join(' ') || 'none';
        const errors = [...stats.errors].map(([e, n]) => `${e}×${n}`).join(' ') || 'none';
        db.query(`SELECT count(*)::int AS n FROM delivery.inbox WHERE consumer = $1`, [CONSUMER])
          .then(({ rows }) => rows[0].n)
          .catch(() => '?')
          .then((inbox) =>
            say(`t=${(elapsedMs / 1000).toFixed(0)} s: sent ${stats.sent} (${rate.toFixed(0)}/s), answered ${answered.toFixed(0)}/s, ` +
              `202 ${stats.accepted}, other ${other}, errors ${errors}, in flight ${stats.inFlight}, delivery inbox ${inbox}`),
          );
      }
    },
  });
  const cpuTo = { at: performance.now(), ...cpuSnapshot(names) };
  const m = result.measured;
  const measuredSeconds = (m.end - m.start) / 1000;
  const sentRate = m.sent / measuredSeconds;
  // What the stack actually took: accepted requests from the first measured request to the last
  // answer (an open loop offers the rate; an overloaded server answers less).
  const answeredRate = m.accepted / ((m.lastAnswer - m.start) / 1000);

  // The events of the measured requests: a response names its store and its dataRemocao, which
  // is the event's. (Two requests of one store handled in the same millisecond share a key; each
  // event still counts once.)
  const eventsSql = `
    SELECT e.event_id::text AS id, e.occurred_at, i.processed_at,
           extract(epoch FROM (i.processed_at - e.occurred_at)) * 1000 AS ms
    FROM gateway.events e
    LEFT JOIN delivery.inbox i ON i.event_id = e.event_id AND i.consumer = $3
    WHERE e.type = 'aplicativo.removido'
      AND (e.id_loja, e.data->>'dataRemocao') IN (SELECT * FROM unnest($1::int[], $2::text[]))`;
  const drainStart = Date.now();
  let rows;
  for (;;) {
    ({ rows } = await db.query(eventsSql, [m.idLoja, m.dataRemocao, CONSUMER]));
    if (rows.every((row) => row.processed_at) || Date.now() - drainStart > DRAIN_TIMEOUT_MS) break;
    await sleep(200);
  }
  const delivered = rows.filter((row) => row.processed_at);
  const missing = rows.length - delivered.length + Math.max(0, m.accepted - rows.length);
  const latencies = delivered.map((row) => Number(row.ms)).sort((a, b) => a - b);
  const http = m.httpMs.sort((a, b) => a - b);
  const p50 = percentile(latencies, 50);
  const p90 = percentile(latencies, 90);
  const p99 = percentile(latencies, 99);
  const max = latencies.at(-1);
  const occurred = rows.map((row) => row.occurred_at.getTime());
  const committedRate = rows.length / ((Math.max(...occurred) - Math.min(...occurred)) / 1000);
  const rateOk = answeredRate >= RATE * 0.98;
  const pass = p50 <= TARGET.p50 && p99 <= TARGET.p99 && missing === 0 && rateOk && m.nonAccepted === 0;

  // Where the time goes: event INSERT → relay sends it to Kafka (producer CreateTime) → consumer.
  const created = await producerTimestamps(stack.infra.kafkaBrokers, delivered.map((row) => row.id)).catch(() => new Map());
  const toKafka = [];
  const fromKafka = [];
  for (const row of delivered) {
    const sentAt = created.get(row.id);
    if (sentAt === undefined) continue;
    toKafka.push(sentAt - row.occurred_at.getTime());
    fromKafka.push(row.processed_at.getTime() - sentAt);
  }
  toKafka.sort((a, b) => a - b);
  fromKafka.sort((a, b) => a - b);
  const stage = (values) => `p50 ${fmt(percentile(values, 50))}  p99 ${fmt(percentile(values, 99))}`;

  const cpuSeconds = (cpuTo.at - cpuFrom.at) / 1000;
  const used = [...cpuTo.groups].map(([group, cpu]) => [group, (cpu - (cpuFrom.groups.get(group) ?? 0)) / cpuSeconds]);
  const machineCores = (cpuTo.busy - cpuFrom.busy) / cpuSeconds;
  // Whatever the machine did besides this benchmark's processes (kernel, other users' jobs).
  const outside = Math.max(0, machineCores - used.reduce((sum, [, cores]) => sum + cores, 0));
  const outsideTop = [...cpuTo.outside]
    .map(([pid, { comm, cpu }]) => [comm, (cpu - (cpuFrom.outside.get(pid)?.cpu ?? 0)) / cpuSeconds])
    .reduce((byName, [comm, cores]) => byName.set(comm, (byName.get(comm) ?? 0) + cores), new Map());
  const outsideNames = [...outsideTop].filter(([, cores]) => cores >= 0.02).sort((a, b) => b[1] - a[1]).slice(0, 4)
    .map(([comm, cores]) => `${comm} ${(cores * 100).toFixed(0)}%`).join(', ');
  const cpuLines = [...used, [`outside the benchmark${outsideNames ? ` (${outsideNames})` : ''}`, outside]]
    .filter(([, cores]) => cores >= 0.005)
    .sort((a, b) => b[1] - a[1])
    .map(([group, cores]) => `${group} ${(cores * 100).toFixed(0)}%`);
  const busy = (cpuTo.busy - cpuFrom.busy) / ((cpuTo.busy - cpuFrom.busy) + (cpuTo.idle - cpuFrom.idle));
  const iowait = (cpuTo.iowait - cpuFrom.iowait) / ((cpuTo.busy - cpuFrom.busy) + (cpuTo.idle - cpuFrom.idle));
  if (outside > 0.15) say(`warning: ${(outside * 100).toFixed(0)}% of a core went to processes outside the benchmark; the figures are disturbed`);

  const other = [...result.other].map(([s, n]) => `${s}×${n}`).join(', ');
  const errors = [...result.errors].map(([e, n]) => `${e}×${n}`).join(', ');
  const out = [
    '',
    'Event latency: api-gateway commit → delivery-service inbox (lojas.events.v1)',
    `  date            ${facts.date}`,
    `  machine         ${facts.cores} cores, ${facts.cpu}, ${facts.memory} RAM, node ${facts.node}`,
    `  stack           durable (PostgreSQL fsync on), log level warn, ${storeIds.length} stores`,
    `  offered load    ${RATE} events/s for ${DURATION_S} s after ${WARMUP_S} s warm-up (open loop, excluded from the figures)`,
    `  achieved rate   sent ${sentRate.toFixed(1)}/s (${m.sent} in ${measuredSeconds.toFixed(1)} s); answered ${answeredRate.toFixed(1)}/s ` +
      `(first measured request → last answer); events committed ${committedRate.toFixed(1)}/s (first → last occurred_at)`,
    `  responses       202 × ${result.accepted} of ${result.sent}${other ? `, other: ${other}` : ', no other status'}${errors ? `, errors: ${errors}` : ''}`,
    `  HTTP latency    p50 ${fmt(percentile(http, 50))}  p99 ${fmt(percentile(http, 99))}  max ${fmt(http.at(-1))}  (max ${result.maxInFlight} in flight)`,
    `  events          ${m.accepted} accepted in the measured window, ${rows.length} found in gateway.events, ${delivered.length} delivered, ${missing} missing` +
      (missing ? ` (after waiting ${DRAIN_TIMEOUT_MS / 1000} s)` : ''),
    `  latency         p50 ${fmt(p50)}  p90 ${fmt(p90)}  p99 ${fmt(p99)}  max ${fmt(max)}  (n = ${latencies.length})`,
    `  target          p50 ≤ ${TARGET.p50} ms, p99 ≤ ${TARGET.p99} ms at ${RATE}/s: ${pass ? 'PASS' : 'FAIL'}` +
      (pass ? '' : ` (p50 ${p50 <= TARGET.p50 ? 'ok' : 'over'}, p99 ${p99 <= TARGET.p99 ? 'ok' : 'over'}, rate ${rateOk ? 'ok' : 'short'}, ` +
        `missing ${missing}, non-202 ${m.nonAccepted})`),
    `  breakdown       INSERT → relay sends to Kafka: ${stage(toKafka)};  Kafka send → consumer: ${stage(fromKafka)}  (n = ${toKafka.length})`,
    `  CPU (measured)  machine ${(busy * 100).toFixed(0)}% busy of ${facts.cores} cores (iowait ${(iowait * 100).toFixed(0)}%)`,
    `  CPU by process  % of one core: ${cpuLines.join(', ')}`,
    '  note            occurred_at = clock_timestamp() at the event INSERT (just before the gateway commits);',
    '                  processed_at = now() in the consumer, i.e. the start of its transaction (before the inbox insert commits).',
    '',
  ];
  process.stdout.write(out.join('\n'));
  return pass;
}

main().then(
  (pass) => shutdown(pass ? 0 : 1),
  (error) => {
    say(`benchmark failed: ${error.stack ?? error.message}`);
    return shutdown(1);
  },
);

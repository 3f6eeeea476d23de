// The ceiling's phases (ceiling.mjs runs them in order on the roles it started): capacity, rate
// and backlog, each resolving to its figure, its report lines and whether it ran clean.
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { say, sleep } from '../bench-kit.mjs';
import { steadyRate } from '../latency.mjs';
import { closedLoop, openLoop } from '../load-loops.mjs';
import { cpuMeter } from '../machine.mjs';
import { backlogLines, capacityLines, rateLines } from './ceiling-report.mjs';

const require = createRequire(import.meta.url);
const { Partitioners } = require('kafkajs');
const { request } = require('undici');

/** The longest wait for a backlog to reach the receiver. */
export const BACKLOG_TIMEOUT_S = 300;

/**
 * What the phases share, on a started ceiling: `run` (ceiling.mjs's state), the roles it `has`,
 * the `receiver`'s record of arrivals, role 1's `url`, and `costGroups` (the processes whose CPU
 * makes the cost per event). Gives the load generator (`nextEvent`, `fire`), the waits and
 * queries on what the pipeline did, and a CPU `meter` of the roles and the infrastructure.
 */
export function phaseKit({ run, has, receiver, url, costGroups }) {
  const { settings, db, schema } = run;
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
    const response = await request(url, { method: 'POST', dispatcher: run.dispatcher, headers: { 'content-type': 'application/json' }, body });
    await response.body.dump();
    return { status: response.statusCode, id, at };
  }
  /** Waits (up to `seconds`) until every id in `ids` reached the receiver. */
  async function drain(ids, seconds = settings.drain) {
    const until = Date.now() + seconds * 1000;
    do {
      await receiver.flush();
      if (ids.every((id) => receiver.arrivals.has(id))) return;
      await sleep(200);
    } while (Date.now() < until);
  }
  const outboxLeft = async () => (await db.query(`SELECT count(*)::int AS n FROM ${schema}.outbox`)).rows[0].n;
  /** Milliseconds from each event's commit (its INSERT's clock_timestamp) to role 3's inbox transaction, PostgreSQL's clock. */
  const consumedAfter = async (ids) => (await db.query(
    `SELECT extract(epoch FROM i.processed_at - e.occurred_at) * 1000 AS ms FROM ${schema}.events e JOIN ${schema}.inbox i ON i.event_id = e.id WHERE e.id = ANY($1::uuid[])`,
    [ids],
  )).rows.map((row) => Number(row.ms));
  // cpuMeter reads the infrastructure's pid files under <dataDir>/infra; the roles are `run.names`.
  const meter = () => cpuMeter({ processes: [], dataDir: run.dataDir }, run.names);
  return { run, settings, has, receiver, costGroups, nextEvent, fire, drain, outboxLeft, consumedAfter, meter };
}

/** Closed loop of `connections` to role 1: events/s it commits and, with role 3, events/s that reach the receiver in the same window. */
async function capacityPhase(kit, { duration, warmup }) {
  const { settings, has, receiver: { arrivals } } = kit;
  say(`ceiling capacity phase: closed loop, ${settings.connections} connections, ${warmup + duration} s (${warmup} s warm-up, excluded)`);
  const cpu = kit.meter();
  const accepted = [];
  let windowStart = 0;
  const loop = await closedLoop({
    connections: settings.connections,
    seconds: duration,
    warmupSeconds: warmup,
    send: async () => {
      const sent = await kit.fire();
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
  const report = { settings, duration, warmup, loop };
  if (!has.consumer) {
    const figure = { capacity: acceptedRate, acceptedRate, latencies: loop.latencies, used };
    return { figure, lines: capacityLines({ ...report, figure }), clean: loop.errors.size === 0 };
  }
  await kit.receiver.flush();
  const left = await kit.outboxLeft();
  const notYet = accepted.filter((id) => !arrivals.has(id)).length;
  let delivered = 0;
  for (const at of arrivals.values()) if (at >= windowStart && at < windowEnd) delivered += 1;
  const deliveredRate = delivered / loop.elapsed;
  say(`ceiling capacity phase over; waiting up to ${settings.drain} s for the ${notYet} events not yet received`);
  await kit.drain(accepted);
  const missing = accepted.filter((id) => !arrivals.has(id)).length;
  const figure = { capacity: Math.min(acceptedRate, deliveredRate), acceptedRate, deliveredRate, latencies: loop.latencies, used };
  return { figure, lines: capacityLines({ ...report, figure, delivery: { delivered, left, notYet, missing } }), clean: missing === 0 && loop.errors.size === 0 };
}

/** Open loop to role 1 at `rate` (a number, or a function of the `figures` so far): latency to the receiver (or role 1's answer without role 3) and CPU per event. */
async function ratePhase(kit, { rate, duration, warmup, figures }) {
  const { settings, has, receiver: { arrivals } } = kit;
  const offered = typeof rate === 'function' ? rate(figures) : rate;
  say(`ceiling rate phase: ${offered} events/s for ${warmup + duration} s (${warmup} s warm-up, excluded)`);
  const cpu = kit.meter();
  const measured = [];
  const loop = await openLoop({
    rate: offered,
    seconds: duration,
    warmupSeconds: warmup,
    send: async (i, isMeasured) => {
      const sent = await kit.fire();
      if (sent.status === 202 && isMeasured) measured.push(sent);
      return sent.status;
    },
    onWarmedUp: cpu.start,
    progress: ({ sent, inFlight }) => `sent ${sent}, in flight ${inFlight}${has.consumer ? `, received ${arrivals.size}` : ''}`,
  });
  const used = cpu.stop();
  const ids = measured.map((sent) => sent.id);
  if (has.consumer) await kit.drain(ids);
  // Without role 3 the path ends at role 1's answer.
  const latencies = has.consumer ? measured.filter((sent) => arrivals.has(sent.id)).map((sent) => arrivals.get(sent.id) - sent.at) : loop.latencies;
  const consumed = has.consumer ? await kit.consumedAfter(ids) : [];
  const missing = has.consumer ? measured.length - latencies.length : 0;
  const refused = loop.requests - (loop.statuses.get(202) ?? 0);
  const perEvent = cpuPerEvent(used, measured.length);
  const figure = { offered, latencies, consumed, answers: loop.latencies, missing, twice: kit.receiver.twice, perEvent, pipelineMs: sum(perEvent, kit.costGroups), used };
  const lines = rateLines({ settings, duration, warmup, loop, refused, events: measured.length, costGroups: kit.costGroups, withReceiver: has.consumer, figure });
  return { figure, lines, clean: missing === 0 && refused === 0 && loop.errors.size === 0 };
}

/** `events` produced at once to the topic: the rate at which role 3 delivers them to the receiver. */
async function backlogPhase(kit, { events }) {
  const { run, receiver } = kit;
  say(`ceiling backlog phase: ${events} events produced at once to the topic, role 3 delivers them`);
  run.producer ??= run.kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, allowAutoTopicCreation: false });
  await run.producer.connect();
  const cpu = kit.meter();
  cpu.start();
  const ids = [];
  for (let from = 0; from < events; from += 1000) {
    const batch = Array.from({ length: Math.min(1000, events - from) }, kit.nextEvent);
    ids.push(...batch.map((event) => event.id));
    await run.producer.send({ topic: run.topic, acks: -1, messages: batch.map(({ store, body }) => ({ key: String(store), value: body })) });
  }
  await kit.drain(ids, BACKLOG_TIMEOUT_S);
  const used = cpu.stop();
  const times = ids.filter((id) => receiver.arrivals.has(id)).map((id) => receiver.arrivals.get(id));
  const missing = ids.length - times.length;
  const flow = steadyRate(times);
  const figure = { rate: flow.rate, missing, twice: receiver.twice, used };
  return { figure, lines: backlogLines({ events, received: times.length, timeoutSeconds: BACKLOG_TIMEOUT_S, flow, figure }), clean: missing === 0 && receiver.twice === 0 };
}

/** Each phase by its name in measureCeiling's `phases`. */
export const PHASES = { capacity: capacityPhase, rate: ratePhase, backlog: backlogPhase };

/** Milliseconds of CPU per event of each process group, from what cpuMeter measured over `events`. */
export function cpuPerEvent(used, events) {
  return new Map([...used.cores].map(([group, cores]) => [group, (cores * used.seconds * 1000) / Math.max(1, events)]));
}

const sum = (perEvent, groups) => groups.reduce((total, group) => total + (perEvent.get(group) ?? 0), 0);

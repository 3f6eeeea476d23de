// Benchmark: one event from its commit to a consumer in another service, under a steady
// open-loop load.
//
//   Target: p50 ≤ 20 ms, p99 ≤ 100 ms at 500 events/s, on a 2-core machine with the
//   whole stack running (docs/BENCHMARKS.md).
//
//   npm run bench:events [-- --rate=500 --duration=30 --warmup=30 --stores=200 --source=lojas|atendimento --ceiling=true --keep]
//
// It starts its own durable stack (fast: false, as in production) in a temporary directory on
// its own ports (shifted by TRILHA_PORT_OFFSET) and creates stores through the HTTPS API. Then
// this process plays one more service: with the platform's own EventStore and OutboxRelay (the
// built libs/event-store, as every service runs them) on a schema of its own, it commits
// events of those stores at a fixed rate, each in its own transaction: `aplicativo.removido`
// (--source=lojas, the default) or `atendimento.criado` (--source=atendimento); its relay takes
// them to their topic, where the delivery-service consumes them through its inbox. The load is the events themselves, not HTTP requests: the figure is the event
// plumbing's, and the HTTP routes have benchmarks of their own.
//
// Latency of an event = delivery.inbox.processed_at − events.occurred_at, both from
// PostgreSQL's clock. Unless --ceiling=false, the pipeline's ceiling (lib/pipeline/ceiling.mjs,
// on infrastructure of its own, stopped before the stack starts) is measured first at the same
// rate, over as many stores, and its commit → consumed latency (its consumer's inbox row, the
// same two clocks) printed beside the platform's with their ratio.
// Progress goes to stderr every 5 s; the report goes to stdout.
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { BASE_PORTS, parseArgs, say, sleep } from './lib/bench-kit.mjs';
import { benchStack } from './lib/bench-stack.mjs';
import { latencyLine, latencyRatios, percentile } from './lib/latency.mjs';
import { openLoop } from './lib/load-loops.mjs';
import { cpuMeter, describeMachine } from './lib/machine.mjs';
import { ceilingReport, measureCeiling } from './lib/pipeline/ceiling.mjs';

const require = createRequire(import.meta.url);
const { DataSource } = require('typeorm');
const { Client } = require('pg');
const { Kafka, logLevel } = require('kafkajs');
const { EventStore, OutboxRelay, createKafka, dataSourceOptions, migrate } = require('../dist/libs/event-store/src/index.js');

// The warm-up is long because the stack is fresh: Kafka's JVM spends its first half minute
// compiling hot code, which a running broker has long done.
const args = parseArgs({ rate: 500, duration: 30, warmup: 30, stores: 200, source: 'lojas', ceiling: true, keep: false });
const TARGET = { p50: 20, p99: 100 };
const SCHEMA = 'bench_producer';

/**
 * What the benchmark's service commits, on which topic, and which consumer of the delivery
 * service it is measured at: `lojas`, an `aplicativo.removido` as the gateway commits it (the
 * store's view and queue); `atendimento`, an `atendimento.criado` as the atendimento service
 * commits it (the notification: the stores have no webhook, so it is queued).
 */
const SOURCES = {
  lojas: {
    topic: 'lojas.events.v1',
    consumer: 'delivery.lojas-conhecidas',
    event: (idLoja) => ({ type: 'aplicativo.removido', data: { idLoja, dataRemocao: new Date().toISOString() } }),
  },
  atendimento: {
    topic: 'atendimento.events.v1',
    consumer: 'delivery.notificacoes',
    event: (idLoja) => ({
      type: 'atendimento.criado',
      data: { idAtendimento: randomUUID(), idLoja, canal: 'chat', tipo: 'duvida', status: 'aberto', dadosCliente: { nome: 'Cliente' }, dataAbertura: new Date().toISOString() },
    }),
  },
};
const source = SOURCES[args.source];
if (!source) throw new Error(`--source must be one of ${Object.keys(SOURCES).join(', ')}`);
const CONSUMER = source.consumer;
const DRAIN_TIMEOUT_MS = 15_000;

if (args.ceiling) say('measuring the ceiling first, on infrastructure of its own');
const ceiling = args.ceiling
  ? await measureCeiling({ phases: ['rate'], rate: args.rate, duration: args.duration, warmup: args.warmup, settings: { stores: args.stores }, keep: args.keep })
  : undefined;

const bench = await benchStack('events', BASE_PORTS.events, { keep: args.keep, rateLimitPerMinute: 100_000_000 });

/** The benchmark's own producing service: its schema, event store and outbox relay. */
async function producerService(stack) {
  const database = { url: stack.infra.databaseUrl, schema: SCHEMA, poolSize: 10, migrations: [] };
  await migrate(database);
  const dataSource = await new DataSource(dataSourceOptions(database)).initialize();
  const store = new EventStore(dataSource, (event) => [{ topic: source.topic, schemaVersion: 1, data: event.data }], []);
  const relay = new OutboxRelay(createKafka({ brokers: [stack.infra.kafkaBrokers] }, 'bench-producer-relay'), database);
  store.onOutboxCommit(() => relay.wake());
  await relay.start();
  return {
    commit: (idLoja) => store.transaction((manager) =>
      store.append(manager, `bench-${randomUUID()}`, 0, [source.event(idLoja)], { idLoja })),
    stop: async () => {
      await relay.stop();
      await dataSource.destroy();
    },
  };
}

/** Kafka's CreateTime of each event (stamped by the relay's producer when it sends the batch). */
async function producerTimestamps(brokers, eventIds) {
  const consumer = new Kafka({ brokers: [brokers], clientId: 'bench', logLevel: logLevel.NOTHING }).consumer({ groupId: `bench-${randomUUID()}` });
  const wanted = new Set(eventIds);
  const found = new Map();
  await consumer.connect();
  try {
    await consumer.subscribe({ topic: source.topic, fromBeginning: true });
    let allFound;
    const done = new Promise((resolve) => (allFound = resolve));
    await consumer.run({
      eachMessage: async ({ message }) => {
        const id = message.headers?.['event-id']?.toString();
        if (id && wanted.has(id)) found.set(id, Number(message.timestamp));
        if (found.size === wanted.size) allFound();
      },
    });
    await Promise.race([done, sleep(15_000)]);
  } finally {
    await consumer.disconnect();
  }
  return found;
}

await bench.run(async () => {
  const { facts, stack } = bench;
  const db = new Client({ connectionString: stack.infra.databaseUrl });
  await db.connect();
  say(`creating ${args.stores} stores`);
  const stores = (await bench.createStores(args.stores, { withTokens: false })).map((store) => store.idLoja);
  const producer = await producerService(stack);
  // Let the stores' creation reach every consumer before the clock starts.
  await sleep(2000);

  say(`load: ${args.rate} events/s for ${args.warmup + args.duration} s (${args.warmup} s warm-up, excluded) over ${stores.length} stores`);
  const measured = [];
  let failed = 0;
  const meter = cpuMeter(stack);
  await openLoop({
    rate: args.rate,
    seconds: args.duration,
    warmupSeconds: args.warmup,
    send: (i, isMeasured) =>
      producer.commit(stores[i % stores.length]).then(
        ([event]) => {
          if (isMeasured) measured.push(event.id);
          return 'committed';
        },
        (error) => {
          failed += 1;
          say(`commit failed: ${error.message}`);
          return 'failed';
        },
      ),
    onWarmedUp: meter.start,
    progress: () => db.query(`SELECT count(*)::int AS n FROM delivery.inbox WHERE consumer = $1`, [CONSUMER])
      .then(({ rows }) => `${measured.length} measured events committed, delivery inbox ${rows[0].n}`),
  });
  const cpu = meter.stop();

  const eventsSql = `
    SELECT e.event_id::text AS id, e.occurred_at, i.processed_at, extract(epoch FROM (i.processed_at - e.occurred_at)) * 1000 AS ms
    FROM ${SCHEMA}.events e LEFT JOIN delivery.inbox i ON i.event_id = e.event_id AND i.consumer = $2
    WHERE e.event_id = ANY($1::uuid[])`;
  const drainStart = Date.now();
  let rows;
  for (;;) {
    ({ rows } = await db.query(eventsSql, [measured, CONSUMER]));
    if (rows.every((row) => row.processed_at) || Date.now() - drainStart > DRAIN_TIMEOUT_MS) break;
    await sleep(200);
  }
  await producer.stop();
  await db.end();
  const delivered = rows.filter((row) => row.processed_at);
  const missing = measured.length - delivered.length;
  const latencies = delivered.map((row) => Number(row.ms)).sort((a, b) => a - b);
  const occurred = rows.map((row) => row.occurred_at.getTime());
  const committedRate = rows.length / ((Math.max(...occurred) - Math.min(...occurred)) / 1000);
  const p50 = percentile(latencies, 50);
  const p99 = percentile(latencies, 99);
  const rateOk = committedRate >= args.rate * 0.98;
  const pass = p50 <= TARGET.p50 && p99 <= TARGET.p99 && rateOk && missing === 0 && failed === 0;
  const ratios = ceiling ? `; against the ceiling's commit → consumed ${latencyRatios(latencies, ceiling.figures.rate.consumed)}` : '';

  // Where the time goes: commit → the relay sends it to Kafka (CreateTime) → the consumer.
  const created = await producerTimestamps(stack.infra.kafkaBrokers, delivered.map((row) => row.id)).catch(() => new Map());
  const toKafka = [];
  const fromKafka = [];
  for (const row of delivered) {
    const sentAt = created.get(row.id);
    if (sentAt === undefined) continue;
    toKafka.push(sentAt - row.occurred_at.getTime());
    fromKafka.push(row.processed_at.getTime() - sentAt);
  }

  process.stdout.write([
    '',
    `Event latency: commit (EventStore + OutboxRelay) → delivery-service inbox (${CONSUMER}), over ${source.topic}`,
    `  date            ${facts.date}`,
    `  machine         ${describeMachine(facts)}; load average ${facts.loadAverage} before`,
    `  stack           durable (PostgreSQL fsync on), log level warn, ${stores.length} stores, the whole stack running`,
    `  offered load    ${args.rate} events/s for ${args.duration} s after ${args.warmup} s warm-up (open loop; warm-up excluded), one transaction per event`,
    `  achieved        ${committedRate.toFixed(1)} events/s committed (first → last occurred_at); ${failed} commits failed`,
    `  events          ${measured.length} committed in the measured window, ${delivered.length} consumed, ${missing} missing` +
      (missing ? ` (after waiting ${DRAIN_TIMEOUT_MS / 1000} s)` : ''),
    `  latency         ${latencyLine(latencies)}`,
    `  target          p50 ≤ ${TARGET.p50} ms, p99 ≤ ${TARGET.p99} ms at ${args.rate}/s: ${pass ? 'PASS' : 'FAIL'}` +
      (pass ? '' : ` (p50 ${p50 <= TARGET.p50 ? 'ok' : 'over'}, p99 ${p99 <= TARGET.p99 ? 'ok' : 'over'}, rate ${rateOk ? 'ok' : 'short'}, missing ${missing}, failed ${failed})`) + ratios,
    `  breakdown       commit → relay sends to Kafka: ${latencyLine(toKafka)}`,
    `                  Kafka send → consumer:         ${latencyLine(fromKafka)}`,
    `  CPU             ${cpu.text} (the benchmark process is the producing service)`,
    '  note            occurred_at = clock_timestamp() at the event INSERT (just before the commit);',
    '                  processed_at = now() in the consumer, i.e. the start of its transaction (before the inbox insert commits).',
    ...(ceiling ? ceilingReport(ceiling, [['commit → consumed', `at ${args.rate}/s: ${latencyRatios(latencies, ceiling.figures.rate.consumed)}`]]) : []),
    '',
  ].join('\n'));
  return pass;
});

// Benchmark: POST /v1/pedidoRastreio/evento through the gateway over HTTPS.
//
//   Target: ≥ 300 events/s with p99 ≤ 100 ms, with the whole stack on this 2-core
//   machine and 1,000 stores × 20 orders × 2 volumes × 10 events loaded.
//
//   node bench/tracking-write.mjs [--rate=300 --duration=30 --warmup=5 --connections=50 --max-duration=15 --stores=1000 --log-level=warn --ceiling=true --keep]
//
// It starts its own durable stack (fsync on, as in production), creates the stores through the
// API, loads the data set (bench/lib/tracking-data.mjs), then:
//   1. finds the most it sustains: a closed loop of `connections` concurrent requests, each a
//      new event on a random existing volume of a random store's order (its stream already
//      holds 20 events, so every command reads and folds it);
//   2. offers `rate` of such events per second in an open loop (each request sent on schedule,
//      answered or not): the target's figure. It comes second so that it measures a warm
//      stack: a fresh Kafka and fresh services spend their first half minute compiling, and an
//      open loop that falls behind then never catches up at a rate this close to capacity;
// and checks that every 201 is one stored event and that the outbox drained to Kafka. Unless
// --ceiling=false, the ceiling is measured first (lib/pipeline/ceiling.mjs, role 1 alone: an
// HTTPS POST that commits an event row and its outbox row, on infrastructure of its own) with the
// same loops, and the report gives each figure's ratio to it.
import { createRequire } from 'node:module';
import { BASE_PORTS, parseArgs, say, sleep } from './lib/bench-kit.mjs';
import { benchStack, httpsAgent, request } from './lib/bench-stack.mjs';
import { describeResult, latencyRatios, ratioLine } from './lib/latency.mjs';
import { closedLoop, openLoop } from './lib/load-loops.mjs';
import { cpuMeter } from './lib/machine.mjs';
import { ceilingReport, measureCeiling } from './lib/pipeline/ceiling.mjs';
import { trackingDataSet, trackingReportHead } from './lib/tracking-data.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('pg');

const args = parseArgs({
  rate: 300, duration: 30, warmup: 5, connections: 50, 'max-duration': 15, stores: 1000, orders: 20, volumes: 2, events: 10, 'log-level': 'warn', ceiling: true, keep: false,
});
const TARGET = { rate: 300, p99: 100 };
const RUN = Date.now().toString(36);

if (args.ceiling) say('measuring the ceiling first, on infrastructure of its own');
const ceiling = args.ceiling
  ? await measureCeiling({ roles: ['https'], phases: ['capacity', 'rate'], rate: args.rate, duration: args.duration, warmup: args.warmup, settings: { connections: args.connections }, keep: args.keep })
  : undefined;

const bench = await benchStack('tracking-write', BASE_PORTS.tracking, { keep: args.keep, logLevel: args['log-level'], rateLimitPerMinute: 100_000_000 });

await bench.run(async () => {
  const { facts, stack } = bench;
  const { counts, targets } = await trackingDataSet(bench, args);
  const dispatcher = httpsAgent(stack.caFile, 256);
  let accepted = 0;
  const send = async (index, phase) => {
    const { store, pedido } = targets[Math.floor(Math.random() * targets.length)];
    const response = await request(`${stack.baseUrl}/pedidoRastreio/evento`, {
      method: 'POST',
      dispatcher,
      headers: { authorization: `Bearer ${store.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        numeroPedido: pedido.numeroPedido,
        codigoRastreio: pedido.codigos[index % pedido.codigos.length],
        dataHora: new Date().toISOString(),
        descricao: `bench ${RUN} ${phase} ${index}`,
        sigla: 'BENCH',
      }),
    });
    await response.body.arrayBuffer();
    if (response.statusCode === 201) accepted += 1;
    return response.statusCode;
  };

  say(`closed loop: ${args.connections} connections for ${args['max-duration']} s after ${args.warmup} s warm-up`);
  const meter = cpuMeter(stack);
  meter.start();
  let closedIndex = 0;
  const closed = describeResult(await closedLoop({ connections: args.connections, seconds: args['max-duration'], warmupSeconds: args.warmup, send: () => send(closedIndex++, 'closed') }));
  const closedCpu = meter.stop();
  say(`closed loop: ${closed.line}`);
  await sleep(3000);
  say(`open loop: ${args.rate} events/s for ${args.duration} s after ${args.warmup} s warm-up`);
  meter.start();
  const openResult = await openLoop({ rate: args.rate, seconds: args.duration, warmupSeconds: args.warmup, send: (index) => send(index, 'open') });
  const open = describeResult(openResult);
  const openCpu = meter.stop();
  say(`open loop: ${open.line}; max ${openResult.maxInFlight} in flight`);

  await dispatcher.close();

  // Every 201 is one stored event, and the relay published them all.
  const db = new Client({ connectionString: stack.infra.databaseUrl });
  db.on('error', (error) => say(`database connection lost: ${error.message}`));
  await db.connect();
  let outbox;
  for (let waited = 0; waited < 15_000; waited += 500) {
    ({ rows: [outbox] } = await db.query(`SELECT count(*)::int AS n FROM tracking.outbox`));
    if (outbox.n === 0) break;
    await sleep(500);
  }
  const { rows: [stored] } = await db.query(
    `SELECT count(*)::int AS n FROM tracking.events WHERE type = 'rastreio.evento.registrado' AND data->>'descricao' LIKE $1`, [`bench ${RUN} %`],
  );
  await db.end();

  const ratios = ceiling && [
    ['open loop', `at ${args.rate}/s: ${latencyRatios(openResult.latencies, ceiling.figures.rate.latencies)}`],
    ['closed loop', ratioLine(closed.rate, ceiling.figures.capacity.capacity, 'req/s')],
  ];
  const pass = stored.n === accepted && open.rate >= TARGET.rate * 0.98 && open.p99 <= TARGET.p99 && [...openResult.statuses.keys()].every((status) => status === 201) && openResult.errors.size === 0;
  process.stdout.write([
    ...trackingReportHead('POST /v1/pedidoRastreio/evento through the gateway (HTTPS)', facts, args, counts),
    `  open loop       offered ${args.rate}/s for ${args.duration} s after ${args.warmup} s warm-up: ${open.line}; max ${openResult.maxInFlight} in flight`,
    `                  CPU: ${openCpu.text}`,
    `  closed loop     ${args.connections} connections for ${args['max-duration']} s: ${closed.line}`,
    `                  CPU: ${closedCpu.text}`,
    `  stored          ${stored.n} events of this run in the event log for ${accepted} answers 201 (warm-ups included); ` +
      `outbox ${outbox.n === 0 ? 'drained to Kafka' : `still holds ${outbox.n}`}`,
    `  target          ≥ ${TARGET.rate} events/s with p99 ≤ ${TARGET.p99} ms (open loop): ${pass ? 'PASS' : 'FAIL'}${ratios ? `; against the ceiling ${ratios[0][1]}` : ''}`,
    ...(ceiling ? ceilingReport(ceiling, ratios) : []),
    '',
  ].join('\n'));
  return pass;
});

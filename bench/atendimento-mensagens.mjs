// Benchmark: POST /v1/atendimentos/{id}/mensagens under a steady open-loop load, from the
// request to its atendimento.mensagem event being on Kafka.
//
//   Target: ≥ 300 req/s with p99 ≤ 100 ms from request to the event on Kafka, on a
//   2-core machine with the whole stack running (docs/BENCHMARKS.md).
//
//   node bench/atendimento-mensagens.mjs [--rate=300 --duration=30 --warmup=30 --stores=50 --conversas=500 --ceiling=true --keep]
//
// It starts its own durable stack in a temporary directory on its own ports (shifted by
// TRILHA_PORT_OFFSET), opens conversations over HTTPS, posts messages at a fixed rate, and once
// the load has stopped reads atendimento.events.v1 with a consumer of its own (a reader during
// the load would take CPU from the stack it measures). A message's latency is the Kafka
// timestamp of its event (CreateTime: when the outbox relay produced it) minus the moment the
// request was sent, both from this machine's clock. Unless --ceiling=false, the ceiling is
// measured first (lib/pipeline/ceiling.mjs, role 1 alone: an HTTPS POST that commits an event row
// and its outbox row, on infrastructure of its own) at the same rate, and the report gives the
// HTTP latency's ratio to its answers'. Progress goes to stderr; the report to stdout.
// The warm-up is long because the stack is fresh: Kafka's JVM and the services spend their first
// half minute compiling hot code (with 5 s the same code measured p99 2.5 s, all of it a backlog
// from the first seconds that a load this close to capacity never works off).
import { createRequire } from 'node:module';
import { BASE_PORTS, fmt, inParallel, parseArgs, say, sleep } from './lib/bench-kit.mjs';
import { benchStack } from './lib/bench-stack.mjs';
import { countsLine, latencyLine, latencyRatios, percentile } from './lib/latency.mjs';
import { openLoop } from './lib/load-loops.mjs';
import { cpuMeter, describeMachine } from './lib/machine.mjs';
import { ceilingReport, measureCeiling } from './lib/pipeline/ceiling.mjs';

const require = createRequire(import.meta.url);
const { Kafka, logLevel } = require('kafkajs');

const args = parseArgs({ rate: 300, duration: 30, warmup: 30, stores: 50, conversas: 500, ceiling: true, keep: false });
const TARGET = { rate: 300, p99: 100 };
const DRAIN_TIMEOUT_MS = 15_000;

if (args.ceiling) say('measuring the ceiling first, on infrastructure of its own');
const ceiling = args.ceiling
  ? await measureCeiling({ roles: ['https'], phases: ['rate'], rate: args.rate, duration: args.duration, warmup: args.warmup, keep: args.keep })
  : undefined;

const bench = await benchStack('atendimento', BASE_PORTS.atendimento, { keep: args.keep, rateLimitPerMinute: 100_000_000 });

await bench.run(async () => {
  const { api, facts, stack } = bench;
  say(`creating ${args.stores} stores and ${args.conversas} conversations`);
  const lojas = await bench.createStores(args.stores);
  const conversas = await inParallel(args.conversas, 16, async (i) => {
    const loja = lojas[i % lojas.length];
    const opened = await api('POST', '/atendimentos', { token: loja.token, body: { canal: 'whatsapp', tipo: 'duvida', dadosCliente: { nome: `Cliente ${i}` } } });
    if (opened.status !== 201) throw new Error(`POST /atendimentos: ${opened.status} ${JSON.stringify(opened.body)}`);
    return { token: loja.token, idAtendimento: opened.body.idAtendimento };
  });

  // Every message carries a unique text: its event on Kafka is found by it.
  const runId = Math.random().toString(36).slice(2, 8);
  const sent = new Map(); // text → when it was sent (epoch ms), for the measured messages accepted
  const meter = cpuMeter(stack);
  say(`load: ${args.rate} messages/s for ${args.warmup + args.duration} s (${args.warmup} s warm-up, excluded) over ${args.conversas} conversations`);
  const loop = await openLoop({
    rate: args.rate,
    seconds: args.duration,
    warmupSeconds: args.warmup,
    send: async (i, measured) => {
      const conversa = conversas[i % conversas.length];
      const text = `bench ${runId} ${i}`;
      const sentAt = Date.now();
      const { status } = await api('POST', `/atendimentos/${conversa.idAtendimento}/mensagens`, { token: conversa.token, body: { direcao: 'entrada', remetente: 'cliente', mensagem: text } });
      if (measured && status === 201) sent.set(text, sentAt);
      return status;
    },
    onWarmedUp: meter.start,
    progress: ({ statuses }) => [...statuses].map(([s, n]) => `${s}×${n}`).join(' '),
  });
  const cpu = meter.stop();

  say('reading the events on Kafka');
  const onKafka = await kafkaTimestamps(stack.infra.kafkaBrokers, runId, sent);
  const toKafka = [...sent].filter(([text]) => onKafka.has(text)).map(([text, sentAt]) => onKafka.get(text) - sentAt);
  const accepted = sent.size;
  const missing = accepted - toKafka.length;
  const p99 = percentile([...toKafka].sort((a, b) => a - b), 99);
  const ratio = ceiling && `at ${args.rate}/s: HTTP ${latencyRatios(loop.latencies, ceiling.figures.rate.latencies)}`;
  const pass = loop.rate >= TARGET.rate * 0.98 && accepted === loop.requests && missing === 0 && p99 <= TARGET.p99;

  process.stdout.write([
    '',
    'POST /v1/atendimentos/{id}/mensagens: request → atendimento.mensagem on Kafka',
    `  date            ${facts.date}`,
    `  machine         ${describeMachine(facts)}; load average before start ${facts.loadAverage}`,
    `  stack           durable (PostgreSQL fsync on), log level warn, ${args.stores} stores, ${args.conversas} open conversations`,
    `  offered load    ${args.rate} requests/s for ${args.duration} s after ${args.warmup} s warm-up (open loop; warm-up excluded)`,
    `  achieved rate   ${loop.rate.toFixed(1)} requests/s in the measured window`,
    `  responses       ${countsLine(new Map([...loop.statuses, ...loop.errors]))} (max ${loop.maxInFlight} in flight)`,
    `  HTTP latency    ${latencyLine(loop.latencies)}`,
    `  events          ${accepted} accepted in the measured window, ${toKafka.length} on Kafka, ${missing} missing`,
    `  request → Kafka ${latencyLine(toKafka)}`,
    `  target          ≥ ${TARGET.rate} req/s with p99 ≤ ${TARGET.p99} ms request → Kafka: ${pass ? 'PASS' : 'FAIL'} (p99 ${fmt(p99)})${ratio ? `; against the ceiling ${ratio}` : ''}`,
    `  CPU (measured)  ${cpu.text}`,
    '  note            Kafka time = the record\'s CreateTime, stamped by the outbox relay\'s producer when it sends the batch (ms resolution).',
    ...(ceiling ? ceilingReport(ceiling, [['role 1', ratio]]) : []),
    '',
  ].join('\n'));
  return pass;
});

/**
 * The CreateTime of each message event of the run `runId`, by its text: read from the beginning
 * of atendimento.events.v1 by a group of the run's own (never committed, never read again) until
 * every text in `expected` is found, or for at most DRAIN_TIMEOUT_MS.
 */
async function kafkaTimestamps(brokers, runId, expected) {
  const prefix = `bench ${runId} `;
  const found = new Map();
  const consumer = new Kafka({ brokers: [brokers], clientId: 'bench', logLevel: logLevel.NOTHING }).consumer({ groupId: `bench-${runId}` });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic: 'atendimento.events.v1', fromBeginning: true });
    await consumer.run({
      partitionsConsumedConcurrently: 12,
      autoCommit: false,
      eachMessage: async ({ message }) => {
        const text = JSON.parse(String(message.value)).data.mensagem;
        if (typeof text === 'string' && text.startsWith(prefix)) found.set(text, Number(message.timestamp));
      },
    });
    const start = Date.now();
    while ([...expected.keys()].some((text) => !found.has(text)) && Date.now() - start < DRAIN_TIMEOUT_MS) await sleep(200);
  } finally {
    await consumer.disconnect();
  }
  return found;
}

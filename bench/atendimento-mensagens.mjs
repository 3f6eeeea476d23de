// Benchmark: POST /v1/atendimentos/{id}/mensagens under a steady open-loop load, from the
// request to its atendimento.mensagem event being on Kafka.
//
//   Target (issue 4): ≥ 300 req/s with p99 ≤ 100 ms from request to the event on Kafka, on a
//   2-core machine with the whole stack running (docs/BENCHMARKS.md).
//
//   node bench/atendimento-mensagens.mjs [--rate=300 --duration=30 --warmup=5 --stores=50 --conversas=500 --keep]
//
// It starts its own durable stack in a temporary directory on its own ports (shifted by
// TRILHA_PORT_OFFSET), opens conversations over HTTPS, reads atendimento.events.v1 with a
// consumer of its own, then posts messages at a fixed rate. A message's latency is the Kafka
// timestamp of its event (CreateTime: when the outbox relay produced it) minus the moment the
// request was sent, both from this machine's clock. Progress goes to stderr; the report to stdout.
import { createRequire } from 'node:module';
import { args, benchStack, cpuReport, distribution, fmt, machine, openLoop, percentile, say, sleep } from './lib/bench-kit.mjs';

const require = createRequire(import.meta.url);
const { Kafka, logLevel } = require('kafkajs');

const options = args();
const RATE = Number(options.rate ?? 300);
const DURATION_S = Number(options.duration ?? 30);
const WARMUP_S = Number(options.warmup ?? 5);
const STORES = Number(options.stores ?? 50);
const CONVERSAS = Number(options.conversas ?? 500);
const TARGET = { rate: 300, p99: 100 };
const DRAIN_TIMEOUT_MS = 15_000;

const facts = machine();
const bench = await benchStack('atendimento', { gateway: 20743, kafka: 20792, postgres: 20732, redis: 20779, ops: 20780 }, { keep: options.keep === 'true' });

async function main() {
  const { api, novaLoja, stack } = bench;
  say(`machine: ${facts.cores} cores, ${facts.cpu}, ${facts.memory}, node ${facts.node}, load average ${facts.loadBefore}`);

  say(`creating ${STORES} stores and ${CONVERSAS} conversations`);
  const lojas = [];
  for (let i = 0; i < STORES; i += 1) lojas.push(await novaLoja(`Bench ${i}`));
  const conversas = [];
  for (let i = 0; i < CONVERSAS; i += 1) {
    const loja = lojas[i % lojas.length];
    const opened = await api('POST', '/atendimentos', { token: loja.token, body: { canal: 'whatsapp', tipo: 'duvida', dadosCliente: { nome: `Cliente ${i}` } } });
    if (opened.status !== 201) throw new Error(`POST /atendimentos: ${opened.status} ${JSON.stringify(opened.body)}`);
    conversas.push({ token: loja.token, idAtendimento: opened.body.idAtendimento });
  }

  // Every message carries a unique text: its event on Kafka is found by it.
  const runId = Math.random().toString(36).slice(2, 8);
  const onKafka = new Map();
  const consumer = new Kafka({ brokers: [stack.infra.kafkaBrokers], clientId: 'bench', logLevel: logLevel.NOTHING }).consumer({ groupId: `bench-${runId}` });
  await consumer.connect();
  await consumer.subscribe({ topic: 'atendimento.events.v1', fromBeginning: true });
  await consumer.run({
    partitionsConsumedConcurrently: 12,
    eachMessage: async ({ message }) => {
      const envelope = JSON.parse(String(message.value));
      const text = envelope.data.mensagem;
      if (typeof text === 'string' && text.startsWith(`bench ${runId} `)) onKafka.set(text, { createdAt: Number(message.timestamp), receivedAt: Date.now() });
    },
  });
  await sleep(3000);

  const firstMeasured = Math.round(RATE * WARMUP_S);
  const sent = new Map();
  const statuses = new Map();
  const httpMs = [];
  let measuredStart = 0;
  let measuredEnd = 0;
  let cpuFrom = null;
  let lastTick = 0;
  say(`load: ${RATE} messages/s for ${WARMUP_S + DURATION_S} s (${WARMUP_S} s warm-up, excluded) over ${CONVERSAS} conversations`);
  const loop = await openLoop({
    rate: RATE,
    seconds: WARMUP_S + DURATION_S,
    onTick: (elapsed) => {
      if (!cpuFrom && elapsed >= WARMUP_S * 1000) cpuFrom = bench.cpu();
      if (elapsed - lastTick >= 5000) {
        lastTick = elapsed;
        say(`t=${(elapsed / 1000).toFixed(0)} s: ${[...statuses].map(([s, n]) => `${s}×${n}`).join(' ')}, on Kafka ${onKafka.size}`);
      }
    },
    call: async (i) => {
      const conversa = conversas[i % conversas.length];
      const text = `bench ${runId} ${i}`;
      const measured = i >= firstMeasured;
      const startedAt = performance.now();
      if (measured) {
        measuredStart ||= startedAt;
        sent.set(text, Date.now());
      }
      let status;
      try {
        status = (await api('POST', `/atendimentos/${conversa.idAtendimento}/mensagens`, { token: conversa.token, body: { direcao: 'entrada', remetente: 'cliente', mensagem: text } })).status;
      } catch (error) {
        status = error.code ?? error.message;
      }
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (measured) {
        httpMs.push(performance.now() - startedAt);
        measuredEnd = performance.now();
        if (status !== 201) sent.delete(text);
      }
    },
  });
  const cpuTo = bench.cpu();

  const drainStart = Date.now();
  while ([...sent.keys()].some((text) => !onKafka.has(text)) && Date.now() - drainStart < DRAIN_TIMEOUT_MS) await sleep(200);
  await consumer.disconnect();

  const toKafka = [];
  const toConsumer = [];
  for (const [text, sentAt] of sent) {
    const seen = onKafka.get(text);
    if (!seen) continue;
    toKafka.push(seen.createdAt - sentAt);
    toConsumer.push(seen.receivedAt - sentAt);
  }
  const measuredCount = loop.sent - firstMeasured;
  const achieved = measuredCount / ((measuredEnd - measuredStart) / 1000);
  const accepted = sent.size;
  const missing = accepted - toKafka.length;
  const p99 = percentile([...toKafka].sort((a, b) => a - b), 99);
  const cpu = cpuReport(cpuFrom, cpuTo);
  const pass = achieved >= TARGET.rate * 0.98 && accepted === measuredCount && missing === 0 && p99 <= TARGET.p99;
  if (cpu.outside > 0.15) say(`warning: ${(cpu.outside * 100).toFixed(0)}% of a core went to processes outside the benchmark; the figures are disturbed`);

  process.stdout.write([
    '',
    'POST /v1/atendimentos/{id}/mensagens: request → atendimento.mensagem on Kafka',
    `  date            ${facts.date}`,
    `  machine         ${facts.cores} cores, ${facts.cpu}, ${facts.memory} RAM, node ${facts.node}; load average before start ${facts.loadBefore}`,
    `  stack           durable (PostgreSQL fsync on), log level warn, ${STORES} stores, ${CONVERSAS} open conversations`,
    `  offered load    ${RATE} requests/s for ${DURATION_S} s after ${WARMUP_S} s warm-up (open loop; warm-up excluded)`,
    `  achieved rate   ${achieved.toFixed(1)} requests/s in the measured window`,
    `  responses       ${[...statuses].map(([s, n]) => `${s} × ${n}`).join(', ')} (max ${loop.maxInFlight} in flight)`,
    `  HTTP latency    ${distribution(httpMs)}`,
    `  events          ${accepted} accepted in the measured window, ${toKafka.length} on Kafka, ${missing} missing`,
    `  request → Kafka ${distribution(toKafka)}`,
    `  request → consumer  ${distribution(toConsumer)}`,
    `  target          ≥ ${TARGET.rate} req/s with p99 ≤ ${TARGET.p99} ms request → Kafka: ${pass ? 'PASS' : 'FAIL'} (p99 ${fmt(p99)})`,
    `  CPU (measured)  ${cpu.text}`,
    '  note            Kafka time = the record\'s CreateTime, stamped by the outbox relay\'s producer when it sends the batch (ms resolution).',
    '',
  ].join('\n'));
  return pass;
}

main().then(
  (pass) => bench.stop(pass ? 0 : 1),
  (error) => {
    say(`benchmark failed: ${error.stack ?? error.message}`);
    return bench.stop(1);
  },
);

// Benchmark: deliveries per second of one delivery-service replica.
//
//   Targets, on this 2-core machine with the whole stack running:
//     against a receiver that answers at once:        ≥ 1,000 deliveries/s
//     against a receiver that takes 1 s per request:  ≥ 500 deliveries/s (concurrency, not waiting)
//
//   node bench/webhook-throughput.mjs [--delay=0 --events=30000 --stores=300 --ceiling=true --keep]
//   node bench/webhook-throughput.mjs --delay=1000 --stores=1000
//
// It starts its own durable stack (fast: false; one replica of each service), creates stores
// with a webhook each at a receiver on loopback (a child process answering 200 after --delay
// ms), then produces --events contract-conformant `atendimento.mensagem` events straight to
// `atendimento.events.v1` (keyed by store, as the atendimento service's outbox relay would),
// spread over the stores. The one delivery replica consumes, records and pushes them. The rate
// is deliveries confirmed per second at the receiver between 10 % and 90 % of the events, so
// start-up and the tail do not count. A store's first attempts are made one after another (in
// the order of its events), so concurrency comes from many stores: use at least as many stores
// as the concurrency the delay needs (1 s × 500/s → ≥ 500 stores).
// Unless --ceiling=false, the ceiling is measured first (lib/pipeline/ceiling.mjs, role 3 alone,
// on infrastructure of its own): as many events over as many stores produced at once to a topic,
// each one an inbox row committed and a POST to the same receiver with the same delay, the
// stores of a fetched batch concurrently; the report gives the ratio of the two rates.
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { BASE_PORTS, parseArgs, say, sleep } from './lib/bench-kit.mjs';
import { benchStack } from './lib/bench-stack.mjs';
import { ratioLine, steadyRate } from './lib/latency.mjs';
import { cpuMeter, describeMachine } from './lib/machine.mjs';
import { ceilingReport, measureCeiling } from './lib/pipeline/ceiling.mjs';
import { startReceiver, storesWithWebhooks } from './lib/webhook-receiver.mjs';

const require = createRequire(import.meta.url);
const { Kafka, logLevel, Partitioners } = require('kafkajs');

const args = parseArgs({ delay: 0, events: 30_000, stores: 300, ceiling: true, keep: false });
const TARGET = args.delay >= 1000 ? 500 : 1000;
const TIMEOUT_MS = 300_000;

function evento(idLoja, n) {
  const now = new Date().toISOString();
  return {
    id: randomUUID(), type: 'atendimento.mensagem', schemaVersion: 1, occurredAt: now, idLoja, correlationId: randomUUID(), causationId: null, traceparent: null,
    data: { idAtendimento: `bench-${idLoja}`, idLoja, canal: 'chat', direcao: 'entrada', remetente: 'cliente', mensagem: `mensagem ${n}`, dataHora: now },
  };
}

if (args.ceiling) say('measuring the ceiling first, on infrastructure of its own');
const ceiling = args.ceiling
  ? await measureCeiling({ roles: ['consumer'], phases: ['backlog'], events: args.events, settings: { stores: args.stores, delay: args.delay, 'consumer-order': 'store' }, keep: args.keep })
  : undefined;

const bench = await benchStack(`webhook-throughput-${args.delay}`, BASE_PORTS.delivery, { keep: args.keep });

await bench.run(async () => {
  const { facts, stack } = bench;
  const receiver = await startReceiver(stack, args.delay);
  const producer = new Kafka({ brokers: [stack.infra.kafkaBrokers], clientId: 'bench', logLevel: logLevel.NOTHING }).producer({ createPartitioner: Partitioners.DefaultPartitioner });
  try {
    say(`creating ${args.stores} stores with webhooks (receiver delay ${args.delay} ms)`);
    const stores = await storesWithWebhooks(bench, args.stores, receiver);

    await producer.connect();
    const events = Array.from({ length: args.events }, (_, n) => evento(stores[n % stores.length].idLoja, n));
    const meter = cpuMeter(stack, new Map([[receiver.pid, 'webhook receiver']]));
    meter.start();
    const produceStart = Date.now();
    for (let from = 0; from < events.length; from += 1000) {
      await producer.send({
        topic: 'atendimento.events.v1',
        acks: -1,
        messages: events.slice(from, from + 1000).map((event) => ({ key: String(event.idLoja), value: JSON.stringify(event), headers: { 'event-id': event.id, 'event-type': event.type } })),
      });
    }
    const produceMs = Date.now() - produceStart;
    say(`produced ${events.length} events in ${produceMs} ms`);

    const wanted = new Set(events.map((event) => event.id));
    const arrivals = [];
    const seen = new Map();
    let lastReport = Date.now();
    while (seen.size < wanted.size && Date.now() - produceStart < TIMEOUT_MS) {
      await sleep(250);
      for (const [id, at] of await receiver.arrivals()) {
        if (!wanted.has(id)) continue;
        seen.set(id, (seen.get(id) ?? 0) + 1);
        arrivals.push(at);
      }
      if (Date.now() - lastReport >= 5000) {
        lastReport = Date.now();
        say(`t=${((Date.now() - produceStart) / 1000).toFixed(0)} s: ${seen.size}/${wanted.size} delivered`);
      }
    }
    const cpu = meter.stop();
    const { rate, line: flow } = steadyRate(arrivals);
    const ratio = ceiling ? ` (${ratioLine(rate, ceiling.figures.backlog.rate, 'deliveries/s')} the ceiling)` : '';
    const duplicates = [...seen.values()].filter((count) => count > 1).length;
    const missing = wanted.size - seen.size;
    const pass = rate >= TARGET && missing === 0 && duplicates === 0;
    process.stdout.write([
      '',
      `Webhook throughput: one delivery-service replica, receiver answering ${args.delay ? `after ${args.delay} ms` : 'at once'}`,
      `  date            ${facts.date}`,
      `  machine         ${describeMachine(facts)}; load average before start ${facts.loadAverage}`,
      `  stack           durable (PostgreSQL fsync on), log level warn, one replica of each service, ${stores.length} stores with a webhook`,
      `  load            ${events.length} events produced at once to atendimento.events.v1 (in ${(produceMs / 1000).toFixed(1)} s), ${args.events / args.stores} per store; consumed, recorded and pushed by the one replica`,
      `  delivered       ${seen.size} of ${wanted.size} (${missing} missing, ${duplicates} delivered twice)`,
      `  throughput      ${rate.toFixed(0)} deliveries/s between 10 % and 90 % of the events; ${flow}`,
      `  target          ≥ ${TARGET} deliveries/s: ${pass ? 'PASS' : 'FAIL'}${ratio}`,
      `  CPU (whole run) ${cpu.text}`,
      ...(ceiling ? ceilingReport(ceiling, [['throughput', ratioLine(rate, ceiling.figures.backlog.rate, 'deliveries/s')]]) : []),
      '',
    ].join('\n'));
    return pass;
  } finally {
    await producer.disconnect().catch(() => undefined);
    await receiver.stop();
  }
});

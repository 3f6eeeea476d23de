// Benchmark: an event committed → its webhook received by the store's HTTPS endpoint, under a
// steady open-loop load.
//
//   Target: p50 ≤ 50 ms, p99 ≤ 250 ms at 200 events/s, on this 2-core machine with
//   the whole stack running.
//
//   node bench/webhook-latency.mjs [--rate=200 --duration=30 --warmup=5 --stores=200 --source=gateway|atendimento|kafka --keep]
//
// It starts its own durable stack (fast: false, as in production), creates stores through the
// HTTPS API, registers each one's webhook at a receiver on loopback (a child process answering
// 200 at once), then sends events at a fixed rate (see eventSource): by default through the
// gateway (POST /admin/lojas/{idLoja}/aplicativo/remover commits one `aplicativo.removido`,
// which its outbox relay takes to Kafka), or with --source=kafka straight to
// atendimento.events.v1, or with --source=atendimento as a store opens conversations
// (POST /v1/atendimentos with its token: gateway, atendimento service and its outbox, Kafka, the
// delivery service, the webhook of `atendimento.criado`). The delivery service records and pushes each one. Latency = arrival
// at the receiver − the event's commit (gateway.events.occurred_at, the INSERT's
// clock_timestamp) or publish time; both clocks are this machine's. Figures per stage come
// from the delivery service's inbox and its deliveries' first attempts.
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { BASE_PORTS, parseArgs, say, sleep } from './lib/bench-kit.mjs';
import { benchStack, clientAddress } from './lib/bench-stack.mjs';
import { latencyLine, percentile } from './lib/latency.mjs';
import { openLoop } from './lib/load-loops.mjs';
import { cpuMeter, describeMachine } from './lib/machine.mjs';
import { startReceiver, storesWithWebhooks } from './lib/webhook-receiver.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('pg');
const { Kafka, logLevel, Partitioners } = require('kafkajs');

const args = parseArgs({ rate: 200, duration: 30, warmup: 5, stores: 200, source: 'gateway', keep: false });
const TARGET = { p50: 50, p99: 250 };
const DRAIN_TIMEOUT_MS = 15_000;

/**
 * Where the events come from. `gateway`: POST /admin/lojas/{idLoja}/aplicativo/remover, each
 * committing an `aplicativo.removido` in the gateway (its outbox relay takes it to Kafka); its
 * commit time is gateway.events.occurred_at. `kafka`: a contract-conformant
 * `atendimento.mensagem` produced straight to atendimento.events.v1 (acks=-1), as an outbox
 * relay publishes right after a commit; its time is taken just before the send. The second
 * measures the delivery service alone; the first, the whole way from a committed event.
 */
function eventSource(kind, { api, adminKey, stores, db, kafkaBrokers }) {
  if (kind === 'atendimento') {
    return {
      fire: async (i) => {
        const { token } = stores[i % stores.length];
        const response = await api('POST', '/atendimentos', {
          token,
          headers: clientAddress(),
          body: { canal: 'chat', tipo: 'duvida', dadosCliente: { nome: `Cliente ${i}` } },
        });
        return response.status === 201 ? response.body.idAtendimento : undefined;
      },
      async committed(accepted) {
        const { rows } = await db.query(
          `SELECT event_id::text AS id, occurred_at FROM atendimento.events
           WHERE type = 'atendimento.criado' AND stream_id = ANY($1::text[])`,
          [accepted.map((idAtendimento) => `atendimento-${idAtendimento}`)],
        );
        return new Map(rows.map((row) => [row.id, row.occurred_at.getTime()]));
      },
      close: async () => undefined,
    };
  }
  if (kind === 'gateway') {
    return {
      fire: async (i) => {
        const idLoja = stores[i % stores.length].idLoja;
        const response = await api('POST', `/admin/lojas/${idLoja}/aplicativo/remover`, { headers: { 'x-admin-key': adminKey, ...clientAddress() } });
        return response.status === 202 ? response.body : undefined;
      },
      async committed(accepted) {
        const { rows } = await db.query(
          `SELECT e.event_id::text AS id, e.occurred_at
           FROM unnest($1::int[], $2::text[]) AS r(id_loja, data_remocao)
           JOIN gateway.events e ON e.id_loja = r.id_loja AND e.type = 'aplicativo.removido' AND e.data->>'dataRemocao' = r.data_remocao`,
          [accepted.map((a) => a.idLoja), accepted.map((a) => a.dataRemocao)],
        );
        return new Map(rows.map((row) => [row.id, row.occurred_at.getTime()]));
      },
      close: async () => undefined,
    };
  }
  const producer = new Kafka({ brokers: [kafkaBrokers], clientId: 'bench', logLevel: logLevel.NOTHING }).producer({ createPartitioner: Partitioners.DefaultPartitioner });
  const connected = producer.connect();
  return {
    fire: async (i) => {
      await connected;
      const idLoja = stores[i % stores.length].idLoja;
      const at = Date.now();
      const now = new Date(at).toISOString();
      const event = {
        id: randomUUID(), type: 'atendimento.mensagem', schemaVersion: 1, occurredAt: now, idLoja, correlationId: randomUUID(), causationId: null, traceparent: null,
        data: { idAtendimento: `bench-${idLoja}`, idLoja, canal: 'chat', direcao: 'entrada', remetente: 'cliente', mensagem: `mensagem ${i}`, dataHora: now },
      };
      await producer.send({ topic: 'atendimento.events.v1', acks: -1, messages: [{ key: String(idLoja), value: JSON.stringify(event) }] });
      return { id: event.id, at };
    },
    committed: async (accepted) => new Map(accepted.map((a) => [a.id, a.at])),
    close: () => producer.disconnect(),
  };
}

/** What each --source sends, and where its latency starts. */
const SOURCE_DESCRIPTIONS = {
  gateway: { from: 'committed (api-gateway)', load: 'aplicativo.removido via the operator route' },
  atendimento: { from: 'committed (atendimento-service)', load: 'POST /v1/atendimentos with a store token, atendimento.criado notified' },
  kafka: { from: 'produced to Kafka', load: 'atendimento.mensagem produced to atendimento.events.v1' },
};
if (!SOURCE_DESCRIPTIONS[args.source]) throw new Error(`--source must be one of ${Object.keys(SOURCE_DESCRIPTIONS).join(', ')}`);

const bench = await benchStack('webhook-latency', BASE_PORTS.delivery, { keep: args.keep });

await bench.run(async () => {
  const { api, facts, stack } = bench;
  let receiver;
  let source;
  let db;
  try {
    receiver = await startReceiver(stack, 0);
    db = new Client({ connectionString: stack.infra.databaseUrl });
    await db.connect();
    say(`creating ${args.stores} stores with webhooks`);
    const stores = await storesWithWebhooks(bench, args.stores, receiver);

    const meter = cpuMeter(stack, new Map([[receiver.pid, 'webhook receiver']]));
    source = eventSource(args.source, { api, adminKey: stack.adminApiKey, stores, db, kafkaBrokers: stack.infra.kafkaBrokers });
    say(`load: ${args.rate} events/s from ${args.source} for ${args.warmup + args.duration} s (${args.warmup} s warm-up, excluded) over ${stores.length} stores`);
    const accepted = [];
    const loop = await openLoop({
      rate: args.rate,
      seconds: args.duration,
      warmupSeconds: args.warmup,
      send: async (i, measured) => {
        const sent = await source.fire(i);
        if (sent === undefined) return 'refused';
        if (measured) accepted.push(sent);
        return 'accepted';
      },
      onWarmedUp: meter.start,
      progress: ({ sent, inFlight }) => `sent ${sent}, in flight ${inFlight}`,
    });
    const cpu = meter.stop();
    const refused = loop.requests - (loop.statuses.get('accepted') ?? 0);

    // The measured events, by id, with their commit (or publish) time.
    const committed = await source.committed(accepted);
    const arrived = new Map();
    const duplicates = [];
    const drainStart = Date.now();
    while (Date.now() - drainStart < DRAIN_TIMEOUT_MS) {
      for (const [id, at] of await receiver.arrivals()) {
        if (arrived.has(id)) duplicates.push(id);
        else arrived.set(id, at);
      }
      if ([...committed.keys()].every((id) => arrived.has(id))) break;
      await sleep(200);
    }
    const latencies = [...committed].filter(([id]) => arrived.has(id)).map(([id, at]) => arrived.get(id) - at);
    const missing = committed.size - latencies.length;

    // Where the time goes: commit → consumed (outbox relay or producer, Kafka, the delivery
    // service's consumer starts its transaction) → the attempt starts (its commit, the
    // dispatcher's claim) → arrival.
    const stages = await db.query(
      `SELECT e.id_evento::text AS id, i.processed_at, t.data_hora
       FROM delivery.entregas e
       JOIN delivery.tentativas t ON t.id_entrega = e.id_entrega AND t.numero = 1
       JOIN delivery.inbox i ON i.event_id = e.id_evento AND i.consumer IN ('delivery.notificacoes', 'delivery.lojas-conhecidas')
       WHERE e.id_evento = ANY($1::uuid[])`,
      [[...committed.keys()]],
    );
    const toConsumer = stages.rows.map((row) => row.processed_at.getTime() - committed.get(row.id));
    const toAttempt = stages.rows.map((row) => row.data_hora.getTime() - row.processed_at.getTime());
    const attemptToArrival = stages.rows.filter((row) => arrived.has(row.id)).map((row) => arrived.get(row.id) - row.data_hora.getTime());

    const sorted = [...latencies].sort((a, b) => a - b);
    const p50 = percentile(sorted, 50);
    const p99 = percentile(sorted, 99);
    const achieved = loop.requests / loop.sendSeconds;
    const pass = p50 <= TARGET.p50 && p99 <= TARGET.p99 && missing === 0 && refused === 0 && achieved >= args.rate * 0.98;
    process.stdout.write([
      '',
      `Webhook latency: event ${SOURCE_DESCRIPTIONS[args.source].from} → webhook received (HTTPS receiver on loopback)`,
      `  date            ${facts.date}`,
      `  machine         ${describeMachine(facts)}; load average before start ${facts.loadAverage}`,
      `  stack           durable (PostgreSQL fsync on), log level warn, one replica of each service, ${stores.length} stores with a webhook`,
      `  offered load    ${args.rate} events/s for ${args.duration} s after ${args.warmup} s warm-up (open loop; ${SOURCE_DESCRIPTIONS[args.source].load})`,
      `  achieved rate   ${achieved.toFixed(1)} events/s in the measured window (${loop.requests} in ${loop.sendSeconds.toFixed(1)} s), ${refused} not accepted`,
      `  webhooks        ${committed.size} events committed, ${latencies.length} received, ${missing} missing, ${duplicates.length} received twice`,
      `  latency         ${latencyLine(latencies)}`,
      `  target          p50 ≤ ${TARGET.p50} ms, p99 ≤ ${TARGET.p99} ms at ${args.rate}/s: ${pass ? 'PASS' : 'FAIL'}`,
      `  breakdown       commit → consumed: ${latencyLine(toConsumer)}`,
      `                  consumed → attempt starts: ${latencyLine(toAttempt)}`,
      `                  attempt starts → received: ${latencyLine(attemptToArrival)}`,
      `  CPU (measured)  ${cpu.text}`,
      '',
    ].join('\n'));
    return pass;
  } finally {
    await source?.close().catch(() => undefined);
    await db?.end().catch(() => undefined);
    await receiver?.stop();
  }
});

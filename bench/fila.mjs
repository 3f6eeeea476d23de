// Benchmark: the pull queue through the public API.
//
//   Targets (issue 5), on this 2-core machine with the whole stack running, with 1,000,000
//   pending items over 10,000 stores:
//     GET /v1/fila/lista     p99 ≤ 20 ms
//     DELETE /v1/fila/delete ≥ 1,000/s
//
//   node bench/fila.mjs [--stores=10000 --perStore=100 --sample=1000 --duration=20 --readers=1 --deleters=32 --keep]
//
// It starts its own durable stack (fast: false), creates --stores stores through the operator
// API, and fills their queues with --perStore items each directly in PostgreSQL (inserting a
// million events through Kafka would take the better part of an hour; the queue's reads and
// deletes do not care how its rows got there). Then, through the gateway over HTTPS with each
// store's own token and the default rate limits: --readers closed-loop clients call
// GET /fila/lista (default limite, 50) for random stores of a --sample for --duration seconds,
// then --deleters clients remove items with DELETE /fila/delete?codigo= for as long.
import { createRequire } from 'node:module';
import { benchStack, clientAddress, cpuMeter, createStores, inParallel, latencyLine, machine, parseArgs, percentile, say } from './delivery-common.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('pg');

const args = parseArgs({ stores: 10_000, perStore: 100, sample: 1000, duration: 20, readers: 1, deleters: 32, keep: 'false' });
const TARGET = { listP99: 20, deletesPerSecond: 1000 };

/** Closed loop: `clients` workers call `work()` back to back for `seconds`. */
async function closedLoop(clients, seconds, work) {
  const latencies = [];
  const failures = new Map();
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      const problem = await work().catch((error) => error.message);
      if (problem === 'skip') break;
      if (problem) failures.set(problem, (failures.get(problem) ?? 0) + 1);
      else latencies.push(performance.now() - t0);
    }
  }));
  return { latencies, failures, seconds: (performance.now() - started) / 1000 };
}

const failuresLine = (failures) => [...failures].map(([problem, count]) => `${problem} × ${count}`).join(', ') || 'none';

async function measure(facts, stack, api) {
  const db = new Client({ connectionString: stack.infra.databaseUrl });
  await db.connect();
  try {
    say(`creating ${args.stores} stores (${args.sample} with tokens)`);
    const started = Date.now();
    const stores = await createStores(api, stack.adminApiKey, args.stores, { withTokens: false });
    const sample = await inParallel(args.sample, 16, async (index) => {
      const auth = await api('GET', `/autenticacao/${stores[index].codigo}`, { headers: clientAddress() });
      if (auth.status !== 200) throw new Error(`GET /autenticacao: ${auth.status}`);
      return { idLoja: stores[index].idLoja, token: auth.body.token };
    });
    say(`stores ready in ${((Date.now() - started) / 1000).toFixed(0)} s; filling the queues with ${args.stores * args.perStore} items`);
    const seedStart = Date.now();
    // Interleaved by store, as a queue filled by many stores' events over time would be.
    await db.query(
      `INSERT INTO delivery.fila (id_loja, id_evento, evento, data, entrega_falhou, data_criacao)
       SELECT s.id_loja, gen_random_uuid(), 'atendimento.mensagem',
              json_build_object('idAtendimento', 'at-' || g, 'idLoja', s.id_loja, 'canal', 'chat', 'direcao', 'entrada',
                                'remetente', 'cliente', 'mensagem', 'Olá, onde está o meu pedido ' || g || '?', 'dataHora', now()),
              g % 10 = 0, now()
       FROM generate_series(1, $2::int) AS g, unnest($1::int[]) AS s(id_loja)
       ORDER BY g, s.id_loja`,
      [stores.map((store) => store.idLoja), args.perStore],
    );
    await db.query(`VACUUM ANALYZE delivery.fila`);
    const [{ pending, size }] = (await db.query(`SELECT count(*)::int AS pending, pg_size_pretty(pg_total_relation_size('delivery.fila')) AS size FROM delivery.fila WHERE removido_em IS NULL`)).rows;
    say(`${pending} pending items (${size} with indexes) in ${((Date.now() - seedStart) / 1000).toFixed(0)} s`);

    const pick = () => sample[Math.floor(Math.random() * sample.length)];
    const meter = cpuMeter(stack);
    // Warm-up: every sampled store once (connections, caches), not measured.
    await inParallel(sample.length, args.readers, async (index) => api('GET', '/fila/lista', { token: sample[index].token }));

    say(`GET /fila/lista: ${args.readers} clients for ${args.duration} s`);
    meter.start();
    const wrongTotals = { count: 0 };
    const reads = await closedLoop(args.readers, args.duration, async () => {
      const response = await api('GET', '/fila/lista', { token: pick().token });
      if (response.status !== 200) return `status ${response.status}`;
      if (response.body.total !== args.perStore || response.body.eventos.length !== 50) wrongTotals.count += 1;
    });
    const readCpu = meter.stop();

    // Every item of the sampled stores, to remove in a random order of stores.
    const { rows } = await db.query(
      `SELECT id_loja, array_agg(id_documento::text) AS ids FROM delivery.fila WHERE id_loja = ANY($1::int[]) AND removido_em IS NULL GROUP BY id_loja`,
      [sample.map((store) => store.idLoja)],
    );
    const tokens = new Map(sample.map((store) => [store.idLoja, store.token]));
    const work = rows.flatMap((row) => row.ids.map((id) => [tokens.get(row.id_loja), id])).sort(() => Math.random() - 0.5);
    say(`DELETE /fila/delete: ${args.deleters} clients for ${args.duration} s (${work.length} items available)`);
    meter.start();
    let next = 0;
    const deletes = await closedLoop(args.deleters, args.duration, async () => {
      if (next >= work.length) throw new Error('skip');
      const [token, codigo] = work[next++];
      const response = await api('DELETE', `/fila/delete?codigo=${codigo}`, { token });
      if (response.status !== 200 || response.body.removido !== true) return `status ${response.status}`;
    });
    const deleteCpu = meter.stop();
    const deleteRate = deletes.latencies.length / deletes.seconds;

    const listP99 = percentile([...reads.latencies].sort((a, b) => a - b), 99);
    const pass = listP99 <= TARGET.listP99 && deleteRate >= TARGET.deletesPerSecond && reads.failures.size === 0 && deletes.failures.size === 0 && wrongTotals.count === 0;
    process.stdout.write([
      '',
      `Queue: GET /fila/lista and DELETE /fila/delete through the gateway (HTTPS, per-store tokens, default rate limits)`,
      `  date            ${facts.date}`,
      `  machine         ${facts.cores} cores, ${facts.cpu}, ${facts.memory} RAM, node ${facts.node}; load average before start ${facts.loadAverage}`,
      `  stack           durable (PostgreSQL fsync on), log level warn, one replica of each service`,
      `  data            ${pending} pending items over ${args.stores} stores (${args.perStore} each; ${size} with indexes); requests over ${sample.length} of the stores`,
      `  GET /fila/lista ${reads.latencies.length} requests by ${args.readers} clients in ${reads.seconds.toFixed(1)} s (${(reads.latencies.length / reads.seconds).toFixed(0)}/s); failures: ${failuresLine(reads.failures)}; wrong totals: ${wrongTotals.count}`,
      `                  latency ${latencyLine(reads.latencies)}`,
      `                  CPU ${readCpu.line}`,
      `  DELETE          ${deletes.latencies.length} removed by ${args.deleters} clients in ${deletes.seconds.toFixed(1)} s: ${deleteRate.toFixed(0)}/s; failures: ${failuresLine(deletes.failures)}`,
      `                  latency ${latencyLine(deletes.latencies)}`,
      `                  CPU ${deleteCpu.line}`,
      `  target          GET p99 ≤ ${TARGET.listP99} ms (${listP99.toFixed(1)}), DELETE ≥ ${TARGET.deletesPerSecond}/s (${deleteRate.toFixed(0)}): ${pass ? 'PASS' : 'FAIL'}`,
      '',
    ].join('\n'));
    return pass ? 0 : 1;
  } finally {
    await db.end().catch(() => undefined);
  }
}

const facts = machine();
say(`machine: ${facts.cores} cores, ${facts.cpu}, ${facts.memory}, node ${facts.node}, load average ${facts.loadAverage}`);
const { stack, api, stop } = await benchStack('fila', { keep: args.keep === 'true' });
const code = await measure(facts, stack, api).catch((error) => {
  say(`benchmark failed: ${error.stack ?? error.message}`);
  return 1;
});
await stop(code);
process.exit(code);

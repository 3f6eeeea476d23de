// Benchmark: the pull queue through the public API.
//
//   Targets, on this 2-core machine with the whole stack running, with 1,000,000
//   pending items over 10,000 stores:
//     GET /v1/fila/lista     p99 ≤ 20 ms
//     DELETE /v1/fila/delete ≥ 1,000/s
//
//   node bench/fila.mjs [--stores=10000 --perStore=100 --sample=1000 --duration=20 --readers=1 --deleters=32 --ceiling=true --keep]
//
// It starts its own durable stack (fast: false), creates --stores stores through the operator
// API, and fills their queues with --perStore items each directly in PostgreSQL (inserting a
// million events through Kafka would take the better part of an hour; the queue's reads and
// deletes do not care how its rows got there). Then, through the gateway over HTTPS with each
// store's own token and the default rate limits: --readers closed-loop clients call
// GET /fila/lista (default limite, 50) for random stores of a --sample for --duration seconds,
// then --deleters clients remove items with DELETE /fila/delete?codigo= for as long.
// Unless --ceiling=false, each has a ceiling in the same run: for the reads, a bare node:https
// server answering a real /fila/lista body from memory (lib/bare-https.mjs) under the same loop;
// for the deletes, measured before the stack starts, role 1 of lib/pipeline/ceiling.mjs (an HTTPS
// POST that commits a row and its outbox row, on infrastructure of its own) under a closed loop
// of as many clients. The report gives each figure's ratio to its ceiling.
import { createRequire } from 'node:module';
import { BASE_PORTS, inParallel, parseArgs, say } from './lib/bench-kit.mjs';
import { benchStack } from './lib/bench-stack.mjs';
import { measureBareServer } from './lib/bare-https.mjs';
import { countsLine, latencyLine, latencyRatios, percentile, ratioLine } from './lib/latency.mjs';
import { closedLoop } from './lib/load-loops.mjs';
import { cpuMeter, describeMachine } from './lib/machine.mjs';
import { ceilingReport, measureCeiling } from './lib/pipeline/ceiling.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('pg');

const args = parseArgs({ stores: 10_000, perStore: 100, sample: 1000, duration: 20, readers: 1, deleters: 32, ceiling: true, keep: false });
const TARGET = { listP99: 20, deletesPerSecond: 1000 };

/** Whatever did not answer 200 (or threw), for the report. */
const failuresLine = ({ statuses, errors }) =>
  countsLine(new Map([...[...statuses].filter(([status]) => status !== 200).map(([status, count]) => [`status ${status}`, count]), ...errors])) || 'none';

if (args.ceiling) say('measuring the deletes\' ceiling first, on infrastructure of its own');
const ceiling = args.ceiling
  ? await measureCeiling({ roles: ['https'], phases: ['capacity'], duration: args.duration, warmup: 5, settings: { connections: args.deleters }, keep: args.keep })
  : undefined;

const bench = await benchStack('fila', BASE_PORTS.delivery, { keep: args.keep });

await bench.run(async () => {
  const { api, facts, stack } = bench;
  const db = new Client({ connectionString: stack.infra.databaseUrl });
  await db.connect();
  try {
    say(`creating ${args.stores} stores (${args.sample} with tokens)`);
    const started = Date.now();
    const stores = await bench.createStores(args.stores, { withTokens: false });
    const sample = await inParallel(args.sample, 16, async (index) => ({ idLoja: stores[index].idLoja, token: await bench.token(stores[index].codigo) }));
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
    let wrongTotals = 0;
    const reads = await closedLoop({
      connections: args.readers,
      seconds: args.duration,
      send: async () => {
        const response = await api('GET', '/fila/lista', { token: pick().token });
        if (response.status === 200 && (response.body.total !== args.perStore || response.body.eventos.length !== Math.min(50, args.perStore))) wrongTotals += 1;
        return response.status;
      },
    });
    const readCpu = meter.stop();
    let bare;
    if (ceiling) {
      const { body } = await api('GET', '/fila/lista', { token: sample[0].token });
      say(`GET ceiling: bare Node HTTPS server, ${args.readers} clients for ${args.duration} s`);
      bare = await measureBareServer(stack, JSON.stringify(body), { connections: args.readers, duration: args.duration, warmup: 2 });
    }

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
    const deletes = await closedLoop({
      connections: args.deleters,
      seconds: args.duration,
      send: async () => {
        if (next >= work.length) return null;
        const [token, codigo] = work[next++];
        const response = await api('DELETE', `/fila/delete?codigo=${codigo}`, { token });
        return response.status === 200 && response.body.removido !== true ? '200 not removed' : response.status;
      },
    });
    const deleteCpu = meter.stop();
    const removed = deletes.statuses.get(200) ?? 0;
    const deleteRate = removed / deletes.elapsed;

    const listP99 = percentile(reads.latencies, 99);
    const readFailures = failuresLine(reads);
    const deleteFailures = failuresLine(deletes);
    const ratios = ceiling && [
      ['GET /fila/lista', `${latencyRatios(reads.latencies, bare.result.latencies)}; ${ratioLine(reads.rate, bare.result.rate, 'req/s')}`],
      ['DELETE', ratioLine(deleteRate, ceiling.figures.capacity.capacity, 'deletes/s')],
    ];
    const pass = listP99 <= TARGET.listP99 && deleteRate >= TARGET.deletesPerSecond && readFailures === 'none' && deleteFailures === 'none' && wrongTotals === 0;
    process.stdout.write([
      '',
      `Queue: GET /fila/lista and DELETE /fila/delete through the gateway (HTTPS, per-store tokens, default rate limits)`,
      `  date            ${facts.date}`,
      `  machine         ${describeMachine(facts)}; load average before start ${facts.loadAverage}`,
      `  stack           durable (PostgreSQL fsync on), log level warn, one replica of each service`,
      `  data            ${pending} pending items over ${args.stores} stores (${args.perStore} each; ${size} with indexes); requests over ${sample.length} of the stores`,
      `  GET /fila/lista ${reads.requests} requests by ${args.readers} clients in ${reads.elapsed.toFixed(1)} s (${reads.rate.toFixed(0)}/s); failures: ${readFailures}; wrong totals: ${wrongTotals}`,
      `                  latency ${latencyLine(reads.latencies)}`,
      `                  CPU ${readCpu.text}`,
      `  DELETE          ${removed} removed by ${args.deleters} clients in ${deletes.elapsed.toFixed(1)} s: ${deleteRate.toFixed(0)}/s; failures: ${deleteFailures}`,
      `                  latency ${latencyLine(deletes.latencies)}`,
      `                  CPU ${deleteCpu.text}`,
      `  target          GET p99 ≤ ${TARGET.listP99} ms (${listP99.toFixed(1)}), DELETE ≥ ${TARGET.deletesPerSecond}/s (${deleteRate.toFixed(0)}): ${pass ? 'PASS' : 'FAIL'}` +
        (ratios ? `; against the ceilings GET ${ratios[0][1]}, DELETE ${ratios[1][1]}` : ''),
      ...(bare ? ['', 'GET ceiling: bare node:https server, a real /fila/lista body from memory, the same loop', `  answers         ${bare.result.line}`, `  CPU             ${bare.cpu.text}`] : []),
      ...(ceiling ? ceilingReport(ceiling, ratios) : []),
      '',
    ].join('\n'));
    return pass;
  } finally {
    await db.end().catch(() => undefined);
  }
});

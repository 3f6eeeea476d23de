// The tracking benchmarks' data set (bench/tracking-read.mjs, bench/tracking-write.mjs): per
// store, orders of volumes with tracking events, as the tracking service would have stored them.
//
// The data is made with the tracking domain's own decide/evolve (dist/), so hashes, volumes and
// records are exactly what the service would have written, then inserted in bulk into the
// tracking service's event log and read models (through the API it would take half an hour on
// this machine).
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { say } from './bench-kit.mjs';
import { describeMachine, machine } from './machine.mjs';

const require = createRequire(import.meta.url);
const root = resolve(import.meta.dirname, '../..');
const { Client } = require('pg');
const domain = require(join(root, 'dist/libs/tracking/domain/src/index.js'));
const { pedidoResposta } = require(join(root, 'dist/libs/tracking/feature/src/pedido.response.js'));
const { novoTokenRastreio } = require(join(root, 'dist/libs/tracking/feature/src/ids.js'));
const { novoIdCompacto } = require(join(root, 'dist/libs/platform/ids/src/index.js'));

/** Inserts rows column by column with unnest, in batches. */
async function insertRows(db, table, columns, types, rows) {
  const BATCH = 5000;
  for (let start = 0; start < rows.length; start += BATCH) {
    const batch = rows.slice(start, start + BATCH);
    const arrays = columns.map((_, index) => batch.map((row) => row[index]));
    const unnest = types.map((type, index) => `$${index + 1}::${type}[]`).join(', ');
    await db.query(`INSERT INTO ${table} (${columns.join(', ')}) SELECT * FROM unnest(${unnest})`, arrays);
  }
}

/**
 * Creates `stores` stores (with tokens) through the API, then loads the tracking benchmarks' data
 * set: per store, `orders` orders of `volumes` volumes with `events` events each (every fourth one
 * internal). Resolves to what was stored ({ pedidos, events, hashes }) and the load's targets:
 * every order with its store, as { store, pedido: { numeroPedido, idPedido, pedidoCanal, codigos } }.
 */
export async function trackingDataSet(bench, { stores: count, orders, volumes, events }) {
  say(`creating ${count} stores and their tokens`);
  const stores = await bench.createStores(count);
  const counts = await loadTrackingData(bench.stack, stores, { orders, volumes, events });
  return { counts, targets: stores.flatMap((store) => store.pedidos.map((pedido) => ({ store, pedido }))) };
}

/** Inserts the data set as the tracking service would have stored it; sets each store's `pedidos`. */
async function loadTrackingData(stack, stores, { orders, volumes, events }) {
  const db = new Client({ connectionString: stack.infra.databaseUrl, options: '-c search_path=tracking' });
  db.on('error', (error) => say(`data: database connection lost: ${error.message}`));
  await db.connect();
  const publicBaseUrl = stack.env['tracking-service'].PUBLIC_BASE_URL;
  const started = Date.now();
  let eventRows = [];
  let hashRows = [];
  const counts = { events: 0, pedidos: 0, hashes: 0 };
  const flush = async () => {
    await insertRows(db, 'events',
      ['stream_id', 'stream_version', 'event_id', 'type', 'schema_version', 'data', 'id_loja', 'correlation_id', 'occurred_at'],
      ['text', 'int', 'uuid', 'text', 'int', 'jsonb', 'int', 'text', 'timestamptz'], eventRows);
    await insertRows(db, 'rastreio_hashes', ['hash', 'id_loja', 'id_pedido'], ['text', 'int', 'text'], hashRows);
    counts.events += eventRows.length;
    counts.hashes += hashRows.length;
    eventRows = [];
    hashRows = [];
  };
  for (const [storeIndex, store] of stores.entries()) {
    store.pedidos = [];
    const pedidoRows = [];
    const rastreioRows = [];
    const codigoRows = [];
    for (let o = 0; o < orders; o += 1) {
      const tokenRastreio = novoTokenRastreio();
      const novo = { idPedido: novoIdCompacto(), tokenRastreio, linkRastreio: `${publicBaseUrl}/rastreio/${tokenRastreio}` };
      const numeroPedido = `PED-${o}`;
      const codigos = Array.from({ length: volumes }, (_, v) => `BR${store.idLoja}X${o}X${v}`);
      let state = domain.pedidoInicial();
      const stored = [];
      for (let e = 0; e < events; e += 1) {
        for (let v = 0; v < volumes; v += 1) {
          const agora = new Date(Date.UTC(2026, 9, 1) + (o * 100 + e) * 3_600_000).toISOString();
          const evento = {
            numeroPedido, tipoPedido: 'envio', pedidoCanal: `MKT-${storeIndex}-${o}`, codigoRastreio: codigos[v], chaveNFe: null, identificador: null,
            codigoEnvio: `ENV-${o}-${v}`, rotulo: `Caixa ${v + 1} de ${volumes}`, dataHora: agora,
            descricao: `Movimentação ${e + 1} do volume ${v + 1}`, sigla: `E${e}`, visivelClienteFinal: e % 4 !== 3, encerraVolume: false, origem: 'api',
          };
          const decided = domain.decidePedido({ acao: 'registrarEvento', idLoja: store.idLoja, evento, novo, agora }, state);
          for (const event of decided) {
            state = domain.evolvePedido(state, event);
            stored.push(event);
          }
        }
      }
      const streamId = domain.pedidoStreamId(novo.idPedido);
      for (const [index, event] of stored.entries()) {
        eventRows.push([streamId, index + 1, randomUUID(), event.type, 1, event.data, store.idLoja, 'bench-fixture', new Date()]);
        if (event.type === 'rastreio.evento.registrado') hashRows.push([event.data.hash, store.idLoja, novo.idPedido]);
      }
      const pedido = state.pedido;
      pedidoRows.push([novo.idPedido, store.idLoja, numeroPedido, 'envio', pedido.pedidoCanal, pedido.situacao, pedido.dataPedido, tokenRastreio, JSON.stringify(pedidoResposta(pedido))]);
      const rastreio = stored.reduce(domain.evolveRastreio, null);
      rastreioRows.push([novo.idPedido, store.idLoja, numeroPedido, 'envio', pedido.pedidoCanal, JSON.stringify(domain.registroRastreio(rastreio))]);
      for (const codigo of codigos) codigoRows.push([store.idLoja, codigo, novo.idPedido]);
      store.pedidos.push({ numeroPedido, idPedido: novo.idPedido, pedidoCanal: pedido.pedidoCanal, codigos, streamVersion: stored.length });
    }
    await insertRows(db, 'pedidos', ['id_pedido', 'id_loja', 'numero_pedido', 'tipo_pedido', 'pedido_canal', 'situacao', 'data_pedido', 'token_rastreio', 'documento'],
      ['text', 'int', 'text', 'text', 'text', 'text', 'timestamptz', 'text', 'text'], pedidoRows);
    await insertRows(db, 'rastreios', ['id_pedido', 'id_loja', 'numero_pedido', 'tipo_pedido', 'pedido_canal', 'documento'],
      ['text', 'int', 'text', 'text', 'text', 'text'], rastreioRows);
    await insertRows(db, 'rastreio_codigos', ['id_loja', 'codigo_rastreio', 'id_pedido'], ['int', 'text', 'text'], codigoRows);
    counts.pedidos += pedidoRows.length;
    if (eventRows.length >= 20_000) await flush();
    if ((storeIndex + 1) % 100 === 0) say(`data: ${storeIndex + 1}/${stores.length} stores (${counts.events + eventRows.length} events) in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  await flush();
  // A bulk load leaves PostgreSQL with statistics to gather and gigabytes of dirty pages: settle
  // both now, as months of ordinary writes would have, so the measurement does not pay for them.
  await db.query('VACUUM ANALYZE');
  await db.query('CHECKPOINT');
  await db.end();
  say(`data: ${counts.pedidos} orders, ${counts.events} events, ${counts.hashes} event hashes loaded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return counts;
}

/** The first lines of both tracking benchmarks' reports: the run, the machine, the stack, the data set. */
export function trackingReportHead(title, facts, args, counts) {
  const end = machine();
  return [
    '',
    title,
    `  date            ${facts.date}`,
    `  machine         ${describeMachine(facts)}`,
    `  load average    ${facts.loadAverage} before the stack started, ${end.loadAverage} at the end (the machine is shared); CPU probe ${end.cpuProbe} at the end`,
    `  stack           durable (PostgreSQL fsync on), log level ${args['log-level']}`,
    `  data            ${args.stores} stores × ${args.orders} orders × ${args.volumes} volumes × ${args.events} events: ${counts.pedidos} orders, ${counts.events} stored events`,
  ];
}

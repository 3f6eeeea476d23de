// What bench/tracking-read.mjs and bench/tracking-write.mjs share: their own durable stack, the
// issue's data set (1,000 stores × 20 orders × 2 volumes × 10 events), load loops, percentiles
// and where the CPU went.
//
// The data set is made with the tracking domain's own decide/evolve (dist/), so hashes, volumes
// and records are exactly what the service would have written, then inserted in bulk into the
// tracking service's event log and read models (through the API it would take half an hour on
// this machine). Stores and their tokens go through the gateway's API.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { stackPorts, startStack } from '../tools/stack.mjs';

const require = createRequire(import.meta.url);
const root = resolve(import.meta.dirname, '..');
const { Agent, request } = require('undici');
const { Client } = require('pg');
const domain = require(join(root, 'dist/libs/tracking/domain/src/index.js'));
const { pedidoResposta } = require(join(root, 'dist/libs/tracking/feature/src/pedido.response.js'));
const { novoIdPedido, novoTokenRastreio } = require(join(root, 'dist/libs/tracking/feature/src/ids.js'));

export const say = (line) => process.stderr.write(`» ${line}\n`);
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function parseArgs(defaults) {
  const given = Object.fromEntries(
    process.argv.slice(2).map((arg) => {
      const [key, value] = arg.replace(/^--/, '').split('=');
      return [key, value ?? 'true'];
    }),
  );
  return Object.fromEntries(Object.entries(defaults).map(([key, value]) => [key, typeof value === 'number' ? Number(given[key] ?? value) : (given[key] ?? value)]));
}

export function machine() {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? 'unknown';
  let cores = availableParallelism();
  try {
    cores = Number(execFileSync('nproc', { encoding: 'utf8' }).trim());
  } catch {
    /* keep availableParallelism */
  }
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  return { date: new Date().toISOString(), cores, cpu: model, memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB`, node: process.version, load };
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export const fmt = (ms) => (Number.isFinite(ms) ? `${ms.toFixed(1)} ms` : 'n/a');

// ---------------------------------------------------------------------------------------------
// CPU accounting (as bench/event-latency.mjs): CPU seconds per process tree, and the machine's.

function cpuSnapshot(names) {
  const tick = 100; // USER_HZ
  const procs = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      procs.set(Number(entry), { ppid: Number(fields[1]), cpu: (Number(fields[11]) + Number(fields[12])) / tick });
    } catch {
      /* gone */
    }
  }
  const groupOf = (pid) => {
    for (let p = pid, hops = 0; p && hops < 20; p = procs.get(p)?.ppid, hops += 1) {
      if (names.has(p)) return names.get(p);
      if (p === process.pid) return 'benchmark (load generator)';
    }
    return 'other';
  };
  const groups = new Map();
  for (const [pid, { cpu }] of procs) groups.set(groupOf(pid), (groups.get(groupOf(pid)) ?? 0) + cpu);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return { at: performance.now(), groups, busy: (user + nice + system + irq + softirq + steal) / tick, idle: (idle + iowait) / tick };
}

/** Starts measuring CPU; the returned function reports it since then, as text. */
export function cpuMeter(stack, extra = new Map()) {
  const names = new Map([...stack.processes.map((service) => [service.child.pid, service.name]), ...extra]);
  const infraDir = realpathSync(join(stack.dataDir, 'infra'));
  for (const name of ['kafka', 'postgres', 'redis']) {
    try {
      names.set(Number(readFileSync(join(infraDir, `${name}.pid`), 'utf8').trim()), name);
    } catch {
      /* not there */
    }
  }
  const from = cpuSnapshot(names);
  return () => {
    const to = cpuSnapshot(names);
    const seconds = (to.at - from.at) / 1000;
    const used = [...to.groups].filter(([group]) => group !== 'other').map(([group, cpu]) => [group, (cpu - (from.groups.get(group) ?? 0)) / seconds]);
    const machineCores = (to.busy - from.busy) / seconds;
    const outside = Math.max(0, machineCores - used.reduce((sum, [, cores]) => sum + cores, 0));
    const busy = (to.busy - from.busy) / (to.busy - from.busy + (to.idle - from.idle));
    const parts = [...used, ['outside the benchmark', outside]]
      .filter(([, cores]) => cores >= 0.005)
      .sort((a, b) => b[1] - a[1])
      .map(([group, cores]) => `${group} ${(cores * 100).toFixed(0)}%`);
    return { busy, outside, text: `machine ${(busy * 100).toFixed(0)}% busy; % of one core: ${parts.join(', ')}` };
  };
}

// ---------------------------------------------------------------------------------------------
// stack and data set

/** Its own durable stack (fsync on, as in production) on its own ports, and a cleanup. */
export async function benchStack(name, { logLevel }) {
  // The benchmark spreads its load over many stores so no per-store limit is hit; the operator
  // routes it uses to create them are limited per client address, so that limit is lifted.
  process.env.RATE_LIMIT_DEFAULT_PER_MINUTE ??= '100000000';
  const dataDir = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  const ports = stackPorts({ gateway: 38443, kafka: 39092, postgres: 35432, redis: 36379, ops: 38180 });
  say(`starting a durable stack in ${dataDir} (gateway :${ports.gateway})`);
  const stack = await startStack({ dataDir, ports, fast: false, logLevel, log: (line) => say(line) });
  const stop = async (keep) => {
    await stack.stop().catch((error) => say(`stop failed: ${error.message}`));
    if (keep) say(`kept ${dataDir} (logs in ${join(dataDir, 'logs')})`);
    else rmSync(dataDir, { recursive: true, force: true });
  };
  return { stack, stop };
}

export function httpsAgent(caFile, connections) {
  return new Agent({ connect: { ca: readFileSync(caFile) }, connections, pipelining: 1, keepAliveTimeout: 30_000 });
}

/** Creates the stores through the API and gets a token for each (each from its own client address). */
export async function createStores(stack, count) {
  const dispatcher = httpsAgent(stack.caFile, 16);
  const stores = new Array(count);
  let next = 0;
  async function worker() {
    while (next < count) {
      const n = next++;
      const created = await request(`${stack.baseUrl}/admin/lojas`, {
        method: 'POST', dispatcher, headers: { 'content-type': 'application/json', 'x-admin-key': stack.adminApiKey }, body: JSON.stringify({ nome: `Bench ${n}` }),
      });
      const loja = await created.body.json();
      if (created.statusCode !== 201) throw new Error(`POST /admin/lojas: ${created.statusCode} ${JSON.stringify(loja)}`);
      const address = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${(n & 255) + 1}`;
      const auth = await request(`${stack.baseUrl}/autenticacao/${loja.codigo}`, { dispatcher, headers: { 'x-forwarded-for': address } });
      const { token } = await auth.body.json();
      if (auth.statusCode !== 200) throw new Error(`GET /autenticacao: ${auth.statusCode}`);
      stores[n] = { idLoja: loja.idLoja, token, pedidos: [] };
    }
  }
  await Promise.all(Array.from({ length: 8 }, worker));
  await dispatcher.close();
  return stores;
}

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
 * The issue's data set: per store, `orders` orders of `volumes` volumes with `events` events
 * each (every fourth one internal), as the tracking service would have stored them. Fills
 * store.pedidos with what the load needs: numeroPedido, idPedido, the volumes' tracking codes.
 */
export async function loadTrackingData(stack, stores, { orders, volumes, events }) {
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
    const pedidoRows = [];
    const rastreioRows = [];
    const codigoRows = [];
    for (let o = 0; o < orders; o += 1) {
      const tokenRastreio = novoTokenRastreio();
      const novo = { idPedido: novoIdPedido(), tokenRastreio, linkRastreio: `${publicBaseUrl}/rastreio/${tokenRastreio}` };
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
          const decided = domain.decidePedido({ tipo: 'registrarEvento', idLoja: store.idLoja, evento, novo, agora }, state);
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
      rastreioRows.push([novo.idPedido, store.idLoja, numeroPedido, 'envio', pedido.pedidoCanal, rastreio, JSON.stringify(domain.registroRastreio(rastreio))]);
      for (const codigo of codigos) codigoRows.push([store.idLoja, codigo, novo.idPedido]);
      store.pedidos.push({ numeroPedido, idPedido: novo.idPedido, pedidoCanal: pedido.pedidoCanal, codigos, streamVersion: stored.length });
    }
    await insertRows(db, 'pedidos', ['id_pedido', 'id_loja', 'numero_pedido', 'tipo_pedido', 'pedido_canal', 'situacao', 'data_pedido', 'token_rastreio', 'documento'],
      ['text', 'int', 'text', 'text', 'text', 'text', 'timestamptz', 'text', 'text'], pedidoRows);
    await insertRows(db, 'rastreios', ['id_pedido', 'id_loja', 'numero_pedido', 'tipo_pedido', 'pedido_canal', 'estado', 'documento'],
      ['text', 'int', 'text', 'text', 'text', 'jsonb', 'text'], rastreioRows);
    await insertRows(db, 'rastreio_codigos', ['id_loja', 'codigo_rastreio', 'id_pedido'], ['int', 'text', 'text'], codigoRows);
    counts.pedidos += pedidoRows.length;
    if (eventRows.length >= 20_000) await flush();
    if ((storeIndex + 1) % 100 === 0) say(`data: ${storeIndex + 1}/${stores.length} stores (${counts.events + eventRows.length} events) in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  await flush();
  await db.query('VACUUM ANALYZE');
  await db.end();
  say(`data: ${counts.pedidos} orders, ${counts.events} events, ${counts.hashes} event hashes loaded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return counts;
}

/**
 * Closed loop: `connections` workers, each sending its next request as soon as the last one
 * answered, for `seconds` after `warmupSeconds` (excluded from the figures).
 */
export async function closedLoop({ connections, seconds, warmupSeconds, send }) {
  const latencies = [];
  const statuses = new Map();
  const errors = new Map();
  let measuring = false;
  let stop = false;
  let measuredStart = 0;
  let measuredEnd = 0;
  async function worker() {
    while (!stop) {
      const started = performance.now();
      try {
        const status = await send();
        if (measuring) statuses.set(status, (statuses.get(status) ?? 0) + 1);
      } catch (error) {
        if (measuring) errors.set(error.code ?? error.message, (errors.get(error.code ?? error.message) ?? 0) + 1);
      }
      if (measuring) latencies.push(performance.now() - started);
    }
  }
  const workers = Array.from({ length: connections }, worker);
  await sleep(warmupSeconds * 1000);
  measuring = true;
  measuredStart = performance.now();
  await sleep(seconds * 1000);
  measuring = false;
  measuredEnd = performance.now();
  stop = true;
  await Promise.all(workers);
  latencies.sort((a, b) => a - b);
  const elapsed = (measuredEnd - measuredStart) / 1000;
  return { requests: latencies.length, rate: latencies.length / elapsed, latencies, statuses, errors, elapsed };
}

/**
 * Open loop: request i is sent at start + i/rate whether or not earlier ones have answered, so
 * a slow server never lowers the offered rate. Requests sent during the warm-up are excluded.
 */
export function openLoop({ rate, seconds, warmupSeconds, send }) {
  const total = Math.round(rate * (seconds + warmupSeconds));
  const firstMeasured = Math.round(rate * warmupSeconds);
  const latencies = [];
  const statuses = new Map();
  const errors = new Map();
  let inFlight = 0;
  let maxInFlight = 0;
  let measuredStart = 0;
  let lastAnswer = 0;
  const start = performance.now();
  return new Promise((resolveResult) => {
    let sent = 0;
    let finished = false;
    const done = () => {
      if (!finished || inFlight > 0) return;
      latencies.sort((a, b) => a - b);
      // Answered per second: from the first measured request sent to the last one answered.
      const elapsed = (lastAnswer - measuredStart) / 1000;
      resolveResult({ requests: latencies.length, rate: latencies.length / elapsed, latencies, statuses, errors, elapsed, maxInFlight });
    };
    const fire = (index) => {
      const measured = index >= firstMeasured;
      const sentAt = performance.now();
      if (index === firstMeasured) measuredStart = sentAt;
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      send(index)
        .then((status) => measured && statuses.set(status, (statuses.get(status) ?? 0) + 1))
        .catch((error) => measured && errors.set(error.code ?? error.message, (errors.get(error.code ?? error.message) ?? 0) + 1))
        .finally(() => {
          if (measured) {
            lastAnswer = performance.now();
            latencies.push(lastAnswer - sentAt);
          }
          inFlight -= 1;
          done();
        });
    };
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate) + 1);
      while (sent < due) fire(sent++);
      if (sent >= total) {
        clearInterval(timer);
        finished = true;
        done();
      }
    }, 1);
  });
}

export function describeResult(result) {
  const statuses = [...result.statuses].map(([status, n]) => `${status}×${n}`).join(', ');
  const errors = [...result.errors].map(([error, n]) => `${error}×${n}`).join(', ');
  return {
    rate: result.rate,
    p50: percentile(result.latencies, 50),
    p99: percentile(result.latencies, 99),
    line: `${result.rate.toFixed(0)} req/s; p50 ${fmt(percentile(result.latencies, 50))}, p90 ${fmt(percentile(result.latencies, 90))}, ` +
      `p99 ${fmt(percentile(result.latencies, 99))}, max ${fmt(result.latencies.at(-1))}; ${result.requests} requests in ${result.elapsed.toFixed(1)} s; ` +
      `status ${statuses || 'none'}${errors ? `; errors ${errors}` : ''}`,
  };
}

export { request };

// What the delivery benchmarks (webhook-latency, webhook-throughput, fila) share: arguments,
// the machine, percentiles, CPU accounting, a durable stack of their own, stores with tokens,
// and a webhook receiver in a child process (so its CPU is not the load generator's).
import { execFileSync, fork } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { stackPorts, startStack } from '../tools/stack.mjs';

const require = createRequire(import.meta.url);
const { Agent, request } = require('undici');

export const say = (line) => process.stderr.write(`» ${line}\n`);
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const fmt = (ms) => (Number.isFinite(ms) ? `${ms.toFixed(1)} ms` : 'n/a');

export function parseArgs(defaults) {
  const given = Object.fromEntries(process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, value ?? 'true'];
  }));
  return Object.fromEntries(Object.entries(defaults).map(([key, value]) => [key, key in given ? (typeof value === 'number' ? Number(given[key]) : given[key]) : value]));
}

export function machine() {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  let cores = availableParallelism();
  try {
    cores = Number(execFileSync('nproc', { encoding: 'utf8' }).trim());
  } catch {
    /* keep availableParallelism */
  }
  return {
    date: new Date().toISOString(),
    cores,
    cpu: /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? 'unknown',
    memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    node: process.version,
    loadAverage: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
  };
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export const latencyLine = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `p50 ${fmt(percentile(sorted, 50))}  p90 ${fmt(percentile(sorted, 90))}  p99 ${fmt(percentile(sorted, 99))}  max ${fmt(sorted.at(-1))}  (n = ${sorted.length})`;
};

/** CPU seconds used so far by each process tree (services, Kafka, PostgreSQL, receiver…) and by the machine. */
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

/** Measures CPU between start() and stop(): the machine's busy share and each process tree's. */
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
  let from;
  return {
    start: () => (from = cpuSnapshot(names)),
    stop() {
      const to = cpuSnapshot(names);
      const seconds = (to.at - from.at) / 1000;
      const used = [...to.groups].filter(([group]) => group !== 'other').map(([group, cpu]) => [group, (cpu - (from.groups.get(group) ?? 0)) / seconds]);
      const machineCores = (to.busy - from.busy) / seconds;
      // Whatever the machine did besides this benchmark's processes (kernel, other users' jobs).
      const outside = Math.max(0, machineCores - used.reduce((sum, [, cores]) => sum + cores, 0));
      const busy = (to.busy - from.busy) / (to.busy - from.busy + (to.idle - from.idle));
      const lines = [...used, ['outside the benchmark', outside]]
        .filter(([, cores]) => cores >= 0.005)
        .sort((a, b) => b[1] - a[1])
        .map(([group, cores]) => `${group} ${(cores * 100).toFixed(0)}%`);
      return { busy, outside, line: `machine ${(busy * 100).toFixed(0)}% busy; % of one core: ${lines.join(', ')}` };
    },
  };
}

/**
 * A durable stack of the benchmark's own (fast: false, as in production) in a temporary
 * directory on its own ports, and an HTTPS client for its gateway. `stop(code)` removes the
 * directory unless the run failed or --keep was given.
 */
export async function benchStack(name, { keep, logLevel = 'warn' }) {
  const dataDir = mkdtempSync(join(tmpdir(), `trilha-bench-${name}-`));
  const ports = stackPorts({ gateway: 38443, kafka: 39092, postgres: 35432, redis: 36379, ops: 38180 });
  say(`starting a durable stack in ${dataDir} (gateway :${ports.gateway}, postgres :${ports.postgres})`);
  const stack = await startStack({ dataDir, ports, fast: false, logLevel, log: (line) => say(line) });
  const dispatcher = new Agent({ connect: { ca: readFileSync(stack.caFile) }, connections: 256, keepAliveTimeout: 30_000 });
  const api = async (method, path, { headers = {}, body, token } = {}) => {
    const response = await request(`${stack.baseUrl}${path}`, {
      method,
      dispatcher,
      headers: { ...headers, ...(token && { authorization: `Bearer ${token}` }), ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.body.text();
    return { status: response.statusCode, body: text && /json/.test(response.headers['content-type'] ?? '') ? JSON.parse(text) : text };
  };
  let stopping;
  const stop = (code) => (stopping ??= (async () => {
    await dispatcher.close().catch(() => undefined);
    say('stopping the benchmark stack');
    await stack.stop().catch((error) => say(`stop failed: ${error.message}`));
    if (code === 0 && !keep) rmSync(dataDir, { recursive: true, force: true });
    else say(`kept ${dataDir} (logs in ${join(dataDir, 'logs')})`);
  })());
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(130).then(() => process.exit(130)));
  return { stack, api, stop };
}

/** Runs `work(i)` for i in [0, count) on `concurrency` workers. */
export async function inParallel(count, concurrency, work) {
  let next = 0;
  const results = new Array(count);
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < count) {
      const index = next++;
      results[index] = await work(index);
    }
  }));
  return results;
}

/**
 * A client address of its own for a request: the gateway believes X-Forwarded-For from loopback,
 * so the per-address limits (operator routes, /autenticacao) do not throttle the set-up.
 */
export const clientAddress = () => ({ 'x-forwarded-for': `10.${(Math.random() * 250) | 0}.${(Math.random() * 250) | 0}.${(Math.random() * 250) | 0}` });

/** Creates `count` stores through the operator API, with a token each unless told otherwise. */
export async function createStores(api, adminKey, count, { withTokens = true } = {}) {
  return inParallel(count, 16, async (n) => {
    const created = await api('POST', '/admin/lojas', { headers: { 'x-admin-key': adminKey, ...clientAddress() }, body: { nome: `Bench ${n}` } });
    if (created.status !== 201) throw new Error(`POST /admin/lojas: ${created.status} ${JSON.stringify(created.body)}`);
    if (!withTokens) return { idLoja: created.body.idLoja, codigo: created.body.codigo };
    const auth = await api('GET', `/autenticacao/${created.body.codigo}`, { headers: clientAddress() });
    if (auth.status !== 200) throw new Error(`GET /autenticacao: ${auth.status} ${JSON.stringify(auth.body)}`);
    return { idLoja: created.body.idLoja, token: auth.body.token };
  });
}

/**
 * An HTTPS webhook receiver in a child process (bench/webhook-receiver.mjs) with the stack's
 * localhost certificate, answering 200 after `delayMs`. `arrivals()` gives the requests that
 * arrived since the last call, as [webhook-id, arrival time in epoch ms].
 */
export async function startReceiver(stack, delayMs) {
  const gateway = stack.env['api-gateway'];
  const child = fork(new URL('./webhook-receiver.mjs', import.meta.url), [gateway.TLS_CERT_FILE, gateway.TLS_KEY_FILE, String(delayMs)], { stdio: 'inherit' });
  const port = await new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(message.port));
    child.once('exit', (code) => reject(new Error(`receiver exited with ${code}`)));
  });
  let pending = [];
  let waiting = [];
  child.on('message', (message) => {
    if (message.arrivals) pending.push(...message.arrivals);
    if (message.flushed) waiting.shift()?.();
  });
  return {
    pid: child.pid,
    url: (path) => `https://localhost:${port}${path}`,
    /** Everything that arrived so far (the child reports every 100 ms, and at once when asked). */
    async arrivals() {
      await new Promise((resolve) => {
        waiting.push(resolve);
        child.send('flush');
      });
      const taken = pending;
      pending = [];
      return taken;
    },
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', resolve);
      child.kill();
    }),
  };
}

/** Registers a webhook for each store, pointing at the receiver (each verification is a real call). */
export async function registerWebhooks(api, stores, receiver) {
  await inParallel(stores.length, 16, async (index) => {
    const { idLoja, token } = stores[index];
    const response = await api('POST', '/webhook/novo', { token, body: { url: receiver.url(`/loja/${idLoja}`) } });
    if (response.status !== 201) throw new Error(`POST /webhook/novo: ${response.status} ${JSON.stringify(response.body)}`);
  });
}

export { request };

// Shared by the atendimento benchmarks: arguments, the machine, percentiles, CPU per process,
// a durable stack of their own, stores with tokens. (Same measurements as event-latency.mjs.)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { stackPorts, startStack } from '../../tools/stack.mjs';

const require = createRequire(import.meta.url);
const { Agent, request } = require('undici');

export const say = (line) => process.stderr.write(`» ${line}\n`);
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const fmt = (ms) => (Number.isFinite(ms) ? `${ms.toFixed(1)} ms` : 'n/a');

export function args() {
  return Object.fromEntries(process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, value ?? 'true'];
  }));
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
  return { date: new Date().toISOString(), cores, cpu: model, memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB`, node: process.version, loadBefore: loadavg().map((l) => l.toFixed(2)).join(' ') };
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export const distribution = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `p50 ${fmt(percentile(sorted, 50))}  p90 ${fmt(percentile(sorted, 90))}  p99 ${fmt(percentile(sorted, 99))}  max ${fmt(sorted.at(-1))}  (n = ${sorted.length})`;
};

/** CPU seconds used so far by each process tree (services, Kafka, PostgreSQL…), and by the machine. */
export function cpuSnapshot(names) {
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

/** "machine 93% busy …; by process: …", and how much went to processes outside the benchmark. */
export function cpuReport(from, to) {
  const seconds = (to.at - from.at) / 1000;
  const used = [...to.groups].filter(([group]) => group !== 'other').map(([group, cpu]) => [group, (cpu - (from.groups.get(group) ?? 0)) / seconds]);
  const machineCores = (to.busy - from.busy) / seconds;
  const outside = Math.max(0, machineCores - used.reduce((sum, [, cores]) => sum + cores, 0));
  const busy = (to.busy - from.busy) / ((to.busy - from.busy) + (to.idle - from.idle));
  const lines = [...used, ['outside the benchmark', outside]].filter(([, cores]) => cores >= 0.005).sort((a, b) => b[1] - a[1])
    .map(([group, cores]) => `${group} ${(cores * 100).toFixed(0)}%`);
  return { busy, outside, text: `machine ${(busy * 100).toFixed(0)}% busy; % of one core: ${lines.join(', ')}` };
}

function processNames(stack) {
  const names = new Map(stack.processes.map((service) => [service.child.pid, service.name]));
  const infraDir = realpathSync(join(stack.dataDir, 'infra'));
  for (const name of ['kafka', 'postgres', 'redis']) {
    try {
      names.set(Number(readFileSync(join(infraDir, `${name}.pid`), 'utf8').trim()), name);
    } catch {
      /* not there */
    }
  }
  return names;
}

/**
 * A durable stack (fast: false, as in production) of the benchmark's own, on its own ports
 * (below Linux's ephemeral range, where an outgoing connection may hold any port for a while),
 * with a rate limit far above the load; `api` calls it over HTTPS. Stops on exit and signals.
 */
export async function benchStack(prefix, basePorts, { keep = false } = {}) {
  process.env.RATE_LIMIT_DEFAULT_PER_MINUTE ??= '100000000';
  const dataDir = mkdtempSync(join(tmpdir(), `trilha-bench-${prefix}-`));
  const ports = stackPorts(basePorts);
  say(`starting a durable stack in ${dataDir} (gateway :${ports.gateway}, kafka :${ports.kafka}, postgres :${ports.postgres})`);
  const stack = await startStack({ dataDir, ports, fast: false, logLevel: 'warn', log: (line) => say(line) });
  const dispatcher = new Agent({ connect: { ca: readFileSync(stack.caFile) }, connections: 256, keepAliveTimeout: 30_000 });
  let stopping = null;
  const stop = (code) => {
    stopping ??= (async () => {
      await dispatcher.close().catch(() => undefined);
      say('stopping the benchmark stack');
      await stack.stop().catch((error) => say(`stop failed: ${error.message}`));
      if (code === 0 && !keep) rmSync(dataDir, { recursive: true, force: true });
      else say(`kept ${dataDir} (logs in ${join(dataDir, 'logs')})`);
      process.exit(code);
    })();
    return stopping;
  };
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void stop(130));

  async function api(method, path, { token, headers = {}, body } = {}) {
    const response = await request(`${stack.baseUrl}${path}`, {
      method, dispatcher,
      headers: { ...headers, ...(token && { authorization: `Bearer ${token}` }), ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.body.text();
    return { status: response.statusCode, body: text ? JSON.parse(text) : undefined };
  }

  async function novaLoja(nome) {
    const created = await api('POST', '/admin/lojas', { headers: { 'x-admin-key': stack.adminApiKey }, body: { nome } });
    if (created.status !== 201) throw new Error(`POST /admin/lojas: ${created.status} ${JSON.stringify(created.body)}`);
    // 30/min per client address: each store's token from an address of its own (the gateway trusts loopback's X-Forwarded-For).
    const address = `10.${(created.body.idLoja >> 16) & 255}.${(created.body.idLoja >> 8) & 255}.${created.body.idLoja & 255}`;
    const auth = await api('GET', `/autenticacao/${created.body.codigo}`, { headers: { 'x-forwarded-for': address } });
    if (auth.status !== 200) throw new Error(`GET /autenticacao: ${auth.status}`);
    return { idLoja: created.body.idLoja, token: auth.body.token };
  }

  return { stack, api, novaLoja, stop, cpu: () => cpuSnapshot(processNames(stack)) };
}

/**
 * Open loop: call i is due at start + i/rate, whether or not earlier ones have answered, so a
 * slow server never lowers the offered rate. `call(i)` returns a promise; `measured(i)` says
 * whether it counts (after the warm-up).
 */
export function openLoop({ rate, seconds, call, onTick }) {
  const total = Math.round(rate * seconds);
  const start = performance.now();
  let inFlight = 0;
  let maxInFlight = 0;
  return new Promise((resolve) => {
    let i = 0;
    let sending = true;
    const done = () => {
      if (!sending && inFlight === 0) resolve({ sent: total, maxInFlight, seconds: (performance.now() - start) / 1000 });
    };
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate) + 1);
      while (i < due) {
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        call(i++).finally(() => {
          inFlight -= 1;
          done();
        });
      }
      onTick?.(performance.now() - start);
      if (i >= total) {
        clearInterval(timer);
        sending = false;
        done();
      }
    }, 1);
  });
}

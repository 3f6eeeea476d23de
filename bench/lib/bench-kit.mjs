// What every benchmark under bench/ shares: options, the machine, percentiles, CPU per process,
// a durable stack of its own with an HTTPS client and stores, and open and closed load loops.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { stackPorts, startStack } from '../../tools/stack.mjs';

const require = createRequire(import.meta.url);
const { Agent, request } = require('undici');

export const say = (line) => process.stderr.write(`» ${line}\n`);
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const fmt = (ms) => (Number.isFinite(ms) ? `${ms.toFixed(1)} ms` : 'n/a');

/**
 * Each benchmark's base ports (shifted by TRILHA_PORT_OFFSET, see stackPorts in tools/stack.mjs),
 * all below Linux's ephemeral range (32768–60999), where an outgoing connection may hold any
 * port. The tracking and delivery benchmarks share theirs: run those one at a time.
 */
const TRACKING_AND_DELIVERY_PORTS = { gateway: 21343, kafka: 21392, postgres: 21332, redis: 21379, ops: 21380 };
export const BASE_PORTS = {
  agente: { gateway: 20543, kafka: 20592, postgres: 20532, redis: 20579, ops: 20580 },
  atendimento: { gateway: 20743, kafka: 20792, postgres: 20732, redis: 20779, ops: 20780 },
  events: { gateway: 20943, kafka: 20992, postgres: 20932, redis: 20979, ops: 20980 },
  startup: { gateway: 21143, kafka: 21192, postgres: 21132, redis: 21179, ops: 21180 },
  tracking: TRACKING_AND_DELIVERY_PORTS,
  delivery: TRACKING_AND_DELIVERY_PORTS,
};

/**
 * The command line's `--name=value` options over `defaults`, each parsed as its default's type
 * (a bare `--name` is true). An option without a default stops the benchmark, so a misspelt one
 * is not silently ignored.
 */
export function parseArgs(defaults) {
  const given = Object.fromEntries(process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, value ?? 'true'];
  }));
  const fail = (message) => {
    say(`${message}; options: ${Object.entries(defaults).map(([key, value]) => `--${key}=${value}`).join(' ')}`);
    process.exit(2);
  };
  for (const key of Object.keys(given)) if (!(key in defaults)) fail(`unknown option --${key}`);
  return Object.fromEntries(Object.entries(defaults).map(([key, value]) => {
    if (!(key in given)) return [key, value];
    if (typeof value === 'boolean') return [key, given[key] !== 'false'];
    if (typeof value !== 'number') return [key, given[key]];
    const number = Number(given[key]);
    if (!Number.isFinite(number)) fail(`--${key} takes a number`);
    return [key, number];
  }));
}

/**
 * How long this host takes now for a fixed piece of work on one core (SHA-256 chained 200,000
 * times). A shared host runs the same work faster at some hours than at others, which moves
 * every figure of a run; the probe lets runs of different hours be compared.
 */
function cpuProbe() {
  const chain = (times) => {
    let digest = Buffer.alloc(32);
    for (let i = 0; i < times; i += 1) digest = createHash('sha256').update(digest).digest();
  };
  chain(50_000); // warm-up: compiled code from here on, as in the timed part
  const started = process.hrtime.bigint();
  chain(200_000);
  return `${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(0)} ms`;
}

/** The machine, for the report: cores, CPU, memory, Node.js, its CPU probe and load average now. */
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
    cpuProbe: cpuProbe(),
  };
}

/** "2 cores, AMD EPYC …, 23.5 GiB RAM, node v20.20.2, CPU probe 430 ms" */
export const describeMachine = (facts) => `${facts.cores} cores, ${facts.cpu}, ${facts.memory} RAM, node ${facts.node}, CPU probe ${facts.cpuProbe}`;

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** "p50 …  p90 …  p99 …  max …  (n = …)" of latencies in any order. */
export const latencyLine = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `p50 ${fmt(percentile(sorted, 50))}  p90 ${fmt(percentile(sorted, 90))}  p99 ${fmt(percentile(sorted, 99))}  max ${fmt(sorted.at(-1))}  (n = ${sorted.length})`;
};

/** "200 × 2990, ECONNRESET × 10" */
export const countsLine = (counts) => [...counts].map(([what, count]) => `${what} × ${count}`).join(', ');

// ---------------------------------------------------------------------------------------------
// CPU per process

/** CPU seconds used so far by each named process tree and by this process's, and by the machine. */
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

/**
 * Measures CPU between start() and stop(): how busy the machine was, and the share of one core
 * taken by each of the stack's processes (with their children), by `extra` ones (pid → name), by
 * this load generator, and by everything else, "outside the benchmark" (other users' jobs, the
 * kernel). stop() returns { busy, outside, text } and warns when the outside took over 15 %.
 */
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
      const outside = Math.max(0, machineCores - used.reduce((sum, [, cores]) => sum + cores, 0));
      const busy = (to.busy - from.busy) / (to.busy - from.busy + (to.idle - from.idle));
      const parts = [...used, ['outside the benchmark', outside]]
        .filter(([, cores]) => cores >= 0.005)
        .sort((a, b) => b[1] - a[1])
        .map(([group, cores]) => `${group} ${(cores * 100).toFixed(0)}%`);
      if (outside > 0.15) say(`warning: ${(outside * 100).toFixed(0)}% of a core went to processes outside the benchmark; the figures are disturbed`);
      return { busy, outside, text: `machine ${(busy * 100).toFixed(0)}% busy; % of one core: ${parts.join(', ')}` };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The benchmark's stack

/** An HTTPS client trusting the stack's certificate, with up to `connections` connections. */
export const httpsAgent = (caFile, connections) => new Agent({ connect: { ca: readFileSync(caFile) }, connections, pipelining: 1, keepAliveTimeout: 30_000 });

/** Runs `work(i)` for i in [0, count) on `concurrency` workers; resolves to the results in order. */
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

/**
 * A durable stack of the benchmark's own (fast: false: PostgreSQL fsyncs, as in production) in a
 * temporary directory, on `basePorts` shifted by TRILHA_PORT_OFFSET. Returns:
 * - `facts`: the machine, taken before the stack started (so its load average is the machine's);
 * - `stack` (tools/stack.mjs), `api(method, path, { token, headers, body })` over HTTPS through
 *   the gateway, `createStores(count)` and `token(codigo)`;
 * - `run(measure)`: runs the benchmark, which resolves to whether its targets were met, then
 *   stops the stack and exits with 0 (met) or 1. The data directory, with the services' logs, is
 *   removed unless the benchmark threw, was interrupted, or `keep` was asked for.
 * `rateLimitPerMinute` lifts the gateway's default per-store limit for loads above it.
 */
export async function benchStack(name, basePorts, { keep = false, logLevel = 'warn', rateLimitPerMinute } = {}) {
  const facts = machine();
  say(`machine: ${describeMachine(facts)}, load average ${facts.loadAverage}`);
  if (rateLimitPerMinute) process.env.RATE_LIMIT_DEFAULT_PER_MINUTE ??= String(rateLimitPerMinute);
  const dataDir = mkdtempSync(join(tmpdir(), `trilha-bench-${name}-`));
  const ports = stackPorts(basePorts);
  say(`starting a durable stack in ${dataDir} (gateway :${ports.gateway}, kafka :${ports.kafka}, postgres :${ports.postgres})`);
  const stack = await startStack({ dataDir, ports, fast: false, logLevel, log: say });
  const dispatcher = httpsAgent(stack.caFile, 256);

  let stopping;
  const stop = (code, keepData) => (stopping ??= (async () => {
    await dispatcher.close().catch(() => undefined);
    say('stopping the benchmark stack');
    await stack.stop().catch((error) => say(`stop failed: ${error.message}`));
    if (keepData) say(`kept ${dataDir} (logs in ${join(dataDir, 'logs')})`);
    else rmSync(dataDir, { recursive: true, force: true });
    process.exit(code);
  })());
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void stop(130, true));

  async function api(method, path, { headers = {}, body, token } = {}) {
    const response = await request(`${stack.baseUrl}${path}`, {
      method,
      dispatcher,
      headers: { ...headers, ...(token && { authorization: `Bearer ${token}` }), ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.body.text();
    return { status: response.statusCode, body: text && /json/.test(response.headers['content-type'] ?? '') ? JSON.parse(text) : text };
  }

  /** A store's API token, for its access code. */
  async function token(codigo) {
    const auth = await api('GET', `/autenticacao/${codigo}`, { headers: clientAddress() });
    if (auth.status !== 200) throw new Error(`GET /autenticacao: ${auth.status} ${JSON.stringify(auth.body)}`);
    return auth.body.token;
  }

  /** Creates `count` stores through the operator API: { idLoja, codigo, token } (no token when withTokens is false). */
  function createStores(count, { withTokens = true } = {}) {
    return inParallel(count, 16, async (n) => {
      const created = await api('POST', '/admin/lojas', { headers: { 'x-admin-key': stack.adminApiKey, ...clientAddress() }, body: { nome: `Bench ${n}` } });
      if (created.status !== 201) throw new Error(`POST /admin/lojas: ${created.status} ${JSON.stringify(created.body)}`);
      const { idLoja, codigo } = created.body;
      return { idLoja, codigo, ...(withTokens && { token: await token(codigo) }) };
    });
  }

  async function run(measure) {
    const [code, failed] = await measure().then(
      (pass) => [pass ? 0 : 1, false],
      (error) => {
        say(`benchmark failed: ${error.stack ?? error.message}`);
        return [1, true];
      },
    );
    await stop(code, failed || keep);
  }

  return { facts, stack, api, token, createStores, run };
}

// ---------------------------------------------------------------------------------------------
// Load loops

/** What a loop records of its measured requests: latencies, statuses (what `send` resolved to) and errors (by code). */
function recorder() {
  const live = { latencies: [], sentAt: [], statuses: new Map(), errors: new Map() };
  const count = (counts, key) => counts.set(key, (counts.get(key) ?? 0) + 1);
  const record = (started) => {
    live.latencies.push(performance.now() - started);
    live.sentAt.push(started);
  };
  return {
    live,
    /** Sends one request; records it when `measured()` says so once it has settled, and resolves to what it resolved to. */
    async send(send, measured) {
      const started = performance.now();
      let status;
      try {
        status = await send();
      } catch (error) {
        if (measured()) {
          count(live.errors, error.code ?? error.message);
          record(started);
        }
        return undefined;
      }
      if (status !== null && measured()) {
        count(live.statuses, status);
        record(started);
      }
      return status;
    },
    result(elapsed, more = {}) {
      const latencies = [...live.latencies].sort((a, b) => a - b);
      const slowest = slowestWindows(live.sentAt, live.latencies, percentile(latencies, 99));
      return { requests: latencies.length, rate: latencies.length / elapsed, latencies, slowest, statuses: live.statuses, errors: live.errors, elapsed, ...more };
    },
  };
}

const WINDOW_MS = 250;

/**
 * When the slowest 1 % of requests were sent: in how many of the run's quarter-seconds, and the
 * share of the busiest one. Spread over many, the tail is queueing; packed into a few, it is a
 * stall (a pause of some process) worth looking for.
 */
function slowestWindows(sentAt, latencies, threshold) {
  if (latencies.length < 100) return undefined;
  const perWindow = new Map();
  let slow = 0;
  let first = Infinity;
  let last = -Infinity;
  latencies.forEach((latency, index) => {
    const window = Math.floor(sentAt[index] / WINDOW_MS);
    first = Math.min(first, window);
    last = Math.max(last, window);
    if (latency < threshold) return;
    perWindow.set(window, (perWindow.get(window) ?? 0) + 1);
    slow += 1;
  });
  const [busiest, most] = [...perWindow].reduce((a, b) => (b[1] > a[1] ? b : a));
  // Wall-clock time, to match against the services' and PostgreSQL's logs.
  const busiestAt = new Date(performance.timeOrigin + busiest * WINDOW_MS).toISOString().slice(11, 23);
  return { windows: perWindow.size, span: last - first + 1, busiestShare: most / slow, busiestAt };
}

/** Logs `t=… s: <what progress() returns>` every 5 s of `elapsedMs`. */
function progressLog(progress) {
  let last = 0;
  return (elapsedMs, live) => {
    if (!progress || elapsedMs - last < 5000) return;
    last = elapsedMs;
    Promise.resolve(progress(live)).then((text) => say(`t=${(elapsedMs / 1000).toFixed(0)} s: ${text}`), () => undefined);
  };
}

/**
 * Closed loop: `connections` workers, each sending its next request as soon as the last one
 * answered, for `seconds` after `warmupSeconds` (requests answered then are not counted).
 * `send()` resolves to the answer's status; `null` means there is no more work, and that worker
 * stops. Resolves to the requests answered in the measured window, their rate, latencies (sorted),
 * statuses and errors, and the window's length in seconds.
 */
export async function closedLoop({ connections, seconds, warmupSeconds = 0, send }) {
  const recording = recorder();
  let measuring = false;
  let stopped = false;
  async function worker() {
    while (!stopped && (await recording.send(send, () => measuring)) !== null);
  }
  const workers = Promise.all(Array.from({ length: connections }, worker));
  await Promise.race([workers, sleep(warmupSeconds * 1000)]);
  measuring = true;
  const from = performance.now();
  await Promise.race([workers, sleep(seconds * 1000)]);
  measuring = false;
  const elapsed = (performance.now() - from) / 1000;
  stopped = true;
  await workers;
  return recording.result(elapsed);
}

/**
 * Open loop: request i is sent at start + i/rate whether or not earlier ones have answered, so a
 * slow server never lowers the offered rate. The first rate × warmupSeconds are the warm-up and
 * are not counted; `send(i, measured)` resolves to the answer's status. `onWarmedUp()` is called
 * as the first measured request is sent; what `progress({ latencies, statuses, errors, sent,
 * inFlight })` returns is logged every 5 s. Resolves once every request has settled, with:
 * the measured requests' latencies (sorted), statuses and errors; `rate`, answered per second
 * from the first measured request sent to the last one answered; `sendSeconds`, from the first
 * measured request sent to the last one sent; `maxInFlight`.
 */
export function openLoop({ rate, seconds, warmupSeconds = 0, send, onWarmedUp, progress }) {
  const total = Math.round(rate * (warmupSeconds + seconds));
  const firstMeasured = Math.round(rate * warmupSeconds);
  const recording = recorder();
  const tick = progressLog(progress);
  let sent = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let measuredFrom = 0;
  let lastAnswer = 0;
  const start = performance.now();
  return new Promise((resolve) => {
    let sendingEnded = 0;
    const done = () => {
      if (!sendingEnded || inFlight > 0) return;
      resolve(recording.result((lastAnswer - measuredFrom) / 1000, {
        maxInFlight,
        sendSeconds: (sendingEnded - measuredFrom) / 1000,
      }));
    };
    const fire = (index) => {
      const measured = index >= firstMeasured;
      if (index === firstMeasured) {
        measuredFrom = performance.now();
        onWarmedUp?.();
      }
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      recording.send(() => send(index, measured), () => measured).finally(() => {
        if (measured) lastAnswer = performance.now();
        inFlight -= 1;
        done();
      });
    };
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate) + 1);
      while (sent < due) fire(sent++);
      tick(performance.now() - start, { ...recording.live, sent, inFlight });
      if (sent >= total) {
        clearInterval(timer);
        sendingEnded = performance.now();
        done();
      }
    }, 1);
  });
}

/** A loop's result in one line: rate, latencies, how many in how long, statuses and errors. */
export function describeResult(result) {
  const statuses = [...result.statuses].map(([status, n]) => `${status}×${n}`).join(', ');
  const errors = [...result.errors].map(([error, n]) => `${error}×${n}`).join(', ');
  return {
    rate: result.rate,
    p50: percentile(result.latencies, 50),
    p99: percentile(result.latencies, 99),
    line: `${result.rate.toFixed(0)} req/s; p50 ${fmt(percentile(result.latencies, 50))}, p90 ${fmt(percentile(result.latencies, 90))}, ` +
      `p99 ${fmt(percentile(result.latencies, 99))}, max ${fmt(result.latencies.at(-1))}; ${result.requests} requests in ${result.elapsed.toFixed(1)} s; ` +
      `status ${statuses || 'none'}${errors ? `; errors ${errors}` : ''}` +
      (result.slowest ? `; slowest 1 % sent in ${result.slowest.windows} of ${result.slowest.span} quarter-seconds (${(100 * result.slowest.busiestShare).toFixed(0)} % in the one from ${result.slowest.busiestAt} UTC)` : ''),
  };
}

export { request };

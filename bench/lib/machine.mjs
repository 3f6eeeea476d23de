// The machine a benchmark runs on, for its report: its facts with a CPU probe, and the CPU taken
// by each process of the benchmark and by everything outside it.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import { join } from 'node:path';
import { say } from './bench-kit.mjs';

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

/** The groups of `cpuMeter` that are not the system measured: this process, and everything outside the benchmark. */
export const LOAD_GENERATOR = 'benchmark (load generator)';
export const OUTSIDE = 'outside the benchmark';

/** CPU seconds used so far by each named process tree and by this process's, and by the machine; and by each PostgreSQL process. */
function cpuSnapshot(names) {
  const tick = 100; // USER_HZ
  const procs = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime + stime, and cutime + cstime: the CPU of its children that have exited (a
      // PostgreSQL backend whose connection closed), which would otherwise vanish from the sum.
      procs.set(Number(entry), { ppid: Number(fields[1]), cpu: (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / tick });
    } catch {
      /* gone */
    }
  }
  const groupOf = (pid) => {
    for (let p = pid, hops = 0; p && hops < 20; p = procs.get(p)?.ppid, hops += 1) {
      if (names.has(p)) return names.get(p);
      if (p === process.pid) return LOAD_GENERATOR;
    }
    return 'other';
  };
  const groups = new Map();
  const postgres = new Map();
  for (const [pid, { cpu }] of procs) {
    const group = groupOf(pid);
    groups.set(group, (groups.get(group) ?? 0) + cpu);
    if (group === 'postgres') postgres.set(pid, cpu);
  }
  const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return { at: performance.now(), groups, postgres, groupOf, busy: (user + nice + system + irq + softirq + steal) / tick, idle: (idle + iowait) / tick };
}

/** The pid holding each local TCP port, from /proc: the sockets of net/tcp and net/tcp6 by inode, and the processes' descriptors. */
function tcpPortOwners() {
  const inodeOwners = new Map();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let fds = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
        if (inode) inodeOwners.set(inode, Number(pid));
      } catch {
        /* closed meanwhile */
      }
    }
  }
  const owners = new Map();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').trim().split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const owner = inodeOwners.get(fields[9]);
      if (owner) owners.set(parseInt(fields[1].split(':').pop(), 16), owner);
    }
  }
  return owners;
}

/**
 * PostgreSQL's CPU by whom it served: each backend's client is the process holding the other end
 * of its connection (the port in the backend's title, `postgres: user db 127.0.0.1(port) …`),
 * and the rest (the postmaster, its background workers, backends that exited) goes unnamed.
 */
function postgresByClient(from, to, seconds) {
  const owners = tcpPortOwners();
  const byClient = new Map();
  for (const [pid, cpu] of to.postgres) {
    let client = POSTGRES_ITSELF;
    try {
      const port = /\((\d+)\)/.exec(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))?.[1];
      if (port && owners.has(Number(port))) client = to.groupOf(owners.get(Number(port)));
    } catch {
      /* exited: its CPU is the postmaster's from now on */
    }
    byClient.set(client, (byClient.get(client) ?? 0) + (cpu - (from.postgres.get(pid) ?? 0)) / seconds);
  }
  // A backend that exited meanwhile is counted whole in the postmaster's children's time: only
  // its CPU since `from` belongs to the window.
  for (const [pid, cpu] of from.postgres) {
    if (!to.postgres.has(pid)) byClient.set(POSTGRES_ITSELF, (byClient.get(POSTGRES_ITSELF) ?? 0) - cpu / seconds);
  }
  return byClient;
}

/** What PostgreSQL did for no client it can name: the postmaster, its background workers, backends that exited. */
const POSTGRES_ITSELF = 'itself or closed connections';

/**
 * Measures CPU between start() and stop(): how busy the machine was, and the share of one core
 * taken by each of the stack's processes (with their children), by `extra` ones (pid → name), by
 * this load generator, and by everything else, "outside the benchmark" (other users' jobs, the
 * kernel). stop() returns { busy, outside, text, seconds, cores, postgresFor } (cores: group → share of one
 * core, outside included) and warns when the outside took over 15 %. `stack` needs only
 * `processes` ({ name, child }) and `dataDir` (its infra/ and zipkin/ hold the infrastructure's pid files).
 */
export function cpuMeter(stack, extra = new Map()) {
  const names = new Map([...stack.processes.map((service) => [service.child.pid, service.name]), ...extra]);
  const infraDir = realpathSync(join(stack.dataDir, 'infra'));
  const pidFiles = [...['kafka', 'postgres', 'redis'].map((name) => [name, join(infraDir, `${name}.pid`)]), ['zipkin', join(stack.dataDir, 'zipkin', 'zipkin.pid')]];
  for (const [name, pidFile] of pidFiles) {
    try {
      names.set(Number(readFileSync(pidFile, 'utf8').trim()), name);
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
      const parts = [...used, [OUTSIDE, outside]]
        .filter(([, cores]) => cores >= 0.005)
        .sort((a, b) => b[1] - a[1])
        .map(([group, cores]) => `${group} ${(cores * 100).toFixed(0)}%`);
      if (outside > 0.15) say(`warning: ${(outside * 100).toFixed(0)}% of a core went to processes outside the benchmark; the figures are disturbed`);
      const postgresFor = postgresByClient(from, to, seconds);
      return {
        busy,
        outside,
        seconds,
        cores: new Map([...used, [OUTSIDE, outside]]),
        postgresFor,
        text: `machine ${(busy * 100).toFixed(0)}% busy; % of one core: ${parts.join(', ')}`,
      };
    },
  };
}

/**
 * CPU per unit of work (group → ms), the load generator and the outside left out: their total
 * and the line "total ms: group ms, …", largest first.
 */
export function systemCpuPerUnit(perUnit) {
  const parts = [...perUnit].filter(([group]) => group !== LOAD_GENERATOR && group !== OUTSIDE).sort((a, b) => b[1] - a[1]);
  const totalMs = parts.reduce((sum, [, ms]) => sum + ms, 0);
  return { totalMs, text: `${totalMs.toFixed(2)} ms: ${parts.filter(([, ms]) => ms >= 0.005).map(([group, ms]) => `${group} ${ms.toFixed(2)}`).join(', ')}` };
}

/** What `cpuMeter` measured, per unit of work at `perSecond` units a second, as `systemCpuPerUnit`'s line. */
export function cpuPerUnit(cpu, perSecond) {
  return systemCpuPerUnit(new Map([...cpu.cores].map(([group, cores]) => [group, (cores * 1000) / Math.max(perSecond, 1e-9)]))).text;
}

/** PostgreSQL's CPU per unit of work by the client it served (`cpuMeter`'s postgresFor): "delivery-service 1.52, …, itself 0.40 ms", largest first. */
export function postgresPerUnit(cpu, perSecond) {
  const parts = [...cpu.postgresFor].map(([client, cores]) => [client, (cores * 1000) / Math.max(perSecond, 1e-9)]).filter(([, ms]) => ms >= 0.005).sort((a, b) => b[1] - a[1]);
  return `${parts.map(([client, ms]) => `${client} ${ms.toFixed(2)}`).join(', ')} ms`;
}

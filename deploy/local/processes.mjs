// Process helpers of the local servers (infra.mjs and its components, zipkin.mjs): finding
// binaries, running a command to completion, launching a long-running service tied to this
// process, stopping it, waiting until it answers, pid files and the leftovers of a previous
// run, port checks and a raw TCP request/response. Dependency-free: only node: builtins.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** How long a service gets to stop on its stop signal before it is killed. */
const STOP_TIMEOUT_MS = 30_000;

export const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const secs = (t0) => `${((Date.now() - t0) / 1000).toFixed(1)} s`;

// ---------------------------------------------------------------------------------------------
// binaries, commands, log files

export function isExecutableFile(p) {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

export function which(cmd) {
  for (const dir of (process.env.PATH || '/usr/local/bin:/usr/bin:/bin').split(path.delimiter)) {
    if (dir && isExecutableFile(path.join(dir, cmd))) return path.join(dir, cmd);
  }
  return null;
}

export function javaBin() {
  const home = process.env.JAVA_HOME;
  if (home) {
    const p = path.join(home, 'bin', 'java');
    if (fs.existsSync(p)) return p;
  }
  return which('java');
}

/** Runs a command to completion, capturing stdout+stderr (never inherits our stdout). */
export function run(cmd, args, { cwd, env, uid, gid, input, timeoutMs } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd,
      env: env || process.env,
      uid,
      gid,
      stdio: [input == null ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    let timer;
    if (timeoutMs) timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`${cmd}: ${e.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, out });
    });
    if (input != null) child.stdin.end(input);
  });
}

export const tailText = (text, lines = 40) => text.trimEnd().split('\n').slice(-lines).join('\n');

export function tailFile(file, fromOffset = 0, lines = 40) {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      const start = Math.max(fromOffset, size - 16384);
      const buf = Buffer.alloc(Math.max(0, size - start));
      fs.readSync(fd, buf, 0, buf.length, start);
      const t = tailText(buf.toString('utf8'), lines);
      return t ? `--- last lines of ${file} ---\n${t}` : '';
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return '';
  }
}

export function readFrom(file, offset) {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      if (size <= offset) return '';
      const buf = Buffer.alloc(size - offset);
      fs.readSync(fd, buf, 0, buf.length, offset);
      return buf.toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return '';
  }
}

export const fileSize = (f) => {
  try {
    return fs.statSync(f).size;
  } catch {
    return 0;
  }
};

// ---------------------------------------------------------------------------------------------
// pids and leftovers

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if (e.code !== 'EPERM') return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/**
 * Whether pid is one of our services for this dataDir: the expected program (comm) whose
 * cmdline mentions dataDir or whose working directory is inside it (redis rewrites its cmdline).
 */
function pidIsOurs(pid, dataDir, comm) {
  try {
    if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== comm) return false;
  } catch {
    return false;
  }
  try {
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
    if (cmdline.includes(dataDir)) return true;
  } catch {
    /* gone or unreadable */
  }
  try {
    const cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
    if (cwd === dataDir || cwd.startsWith(dataDir + path.sep)) return true;
  } catch {
    /* gone or unreadable */
  }
  return false;
}

async function waitPidGone(pid, timeoutMs) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (!pidAlive(pid)) return true;
    await sleep(100);
  }
  return !pidAlive(pid);
}

function readPid(file) {
  try {
    const n = Number(fs.readFileSync(file, 'utf8').split('\n')[0].trim());
    return Number.isInteger(n) && n > 1 ? n : null;
  } catch {
    return null;
  }
}

/**
 * Stops processes left over by a previous run in this dataDir whose parent died abruptly.
 * Each candidate is `{ name, comm, file, signal, serviceOwned }`: the pid in `file` is stopped
 * with `signal` if it is still `comm` running for dataDir. A stale pid file written by launch()
 * is removed; one the service writes itself (`serviceOwned`, postmaster.pid) is left to it.
 */
export async function stopLeftovers(dataDir, candidates, log) {
  const seen = new Set();
  await Promise.all(
    candidates.map(async ({ name, comm, file, signal }) => {
      const pid = readPid(file);
      if (!pid || seen.has(pid) || pid === process.pid) return;
      seen.add(pid);
      if (!pidAlive(pid) || !pidIsOurs(pid, dataDir, comm)) return;
      log(`${name}: stopping leftover process ${pid} from a previous run`);
      try {
        process.kill(pid, signal);
      } catch {
        /* already gone */
      }
      if (!(await waitPidGone(pid, STOP_TIMEOUT_MS))) {
        log(`${name}: leftover process ${pid} did not stop in time, killing it`);
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
        await waitPidGone(pid, 5000);
      }
    }),
  );
  for (const { file, serviceOwned } of candidates) {
    if (serviceOwned) continue;
    const pid = readPid(file);
    if (pid && !pidAlive(pid)) fs.rmSync(file, { force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// ports

function checkPortFree(port) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', (e) => resolve(e.code || e.message));
    srv.listen({ port, host: '127.0.0.1', exclusive: true }, () => srv.close(() => resolve(null)));
  });
}

/** Fails, naming each port and the env var that moves it, unless all `ports` are free on 127.0.0.1. */
export async function checkPorts(ports, portEnv) {
  const problems = [];
  for (const [key, port] of Object.entries(ports)) {
    const err = await checkPortFree(port);
    if (err) {
      problems.push(
        err === 'EADDRINUSE'
          ? `port ${port} (${key}) on 127.0.0.1 is already in use by another process; set ${portEnv[key]} to a free port`
          : `port ${port} (${key}) on 127.0.0.1 cannot be used (${err}); set ${portEnv[key]} to another port`,
      );
    }
  }
  if (problems.length) throw new Error(problems.join('\n'));
}

/** Connects, writes `request`, resolves with whatever arrives until `done(buf)` says enough. */
export function tcpExchange(port, request, done, { host = '127.0.0.1', timeoutMs = 2000 } = {}) {
  return new Promise((resolve) => {
    let buf = Buffer.alloc(0);
    let settled = false;
    const finish = (v) => {
      if (settled) return;
      settled = true;
      sock.destroy();
      resolve(v);
    };
    const sock = net.connect({ port, host }, () => sock.write(request));
    sock.setTimeout(timeoutMs, () => finish(null));
    sock.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (done(buf)) finish(buf);
    });
    sock.on('error', () => finish(null));
    sock.on('close', () => finish(done(buf) ? buf : null));
  });
}

// ---------------------------------------------------------------------------------------------
// services: launch, stop, readiness

const hasSetpriv = () => which('setpriv') != null;

const exitHooks = new Set();
let exitHookInstalled = false;
function onParentExit(fn) {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const f of exitHooks) {
        try {
          f();
        } catch {
          /* best effort */
        }
      }
    });
  }
  exitHooks.add(fn);
  return () => exitHooks.delete(fn);
}

/**
 * Spawns a long-running service. Output goes to logFile; the pid to pidFile. With util-linux
 * setpriv (always on Debian) the child gets a parent-death signal, so it shuts down cleanly
 * whenever this process ends, even by SIGKILL; setpriv also drops to `user` when given. The
 * child then runs in its own process group, so a terminal's Ctrl-C reaches only this process,
 * which decides the order of shutdown (stop(), or simply exiting). Without setpriv the child
 * stays in our process group (Ctrl-C reaches it directly) and an 'exit' hook signals it.
 */
function launch({ name, cmd, args, cwd, env, logFile, pidFile, user, stopSignal }) {
  const out = fs.openSync(logFile, 'a');
  let file = cmd;
  let argv = args;
  let spawnUser = {};
  const pdeath = hasSetpriv();
  if (pdeath) {
    const pre = ['--pdeathsig', stopSignal.replace(/^SIG/, '')];
    if (user) pre.push(`--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups');
    file = 'setpriv';
    argv = [...pre, '--', cmd, ...args];
  } else if (user) {
    spawnUser = { uid: user.uid, gid: user.gid };
  }
  let child;
  try {
    child = spawn(file, argv, {
      cwd,
      env: env || process.env,
      stdio: ['ignore', out, out],
      detached: pdeath,
      ...spawnUser,
    });
  } finally {
    fs.closeSync(out);
  }
  const proc = { name, child, stopSignal, pidFile, exitInfo: null };
  proc.exited = new Promise((resolve) => {
    child.on('error', (e) => {
      proc.exitInfo = { code: null, signal: null, error: e };
      resolve(proc.exitInfo);
    });
    child.on('exit', (code, signal) => {
      proc.exitInfo = { code, signal };
      resolve(proc.exitInfo);
    });
  });
  if (child.pid) fs.writeFileSync(pidFile, `${child.pid}\n`);
  const unhook = onParentExit(() => {
    if (!proc.exitInfo) child.kill(stopSignal);
  });
  proc.exited.then(() => {
    unhook();
    try {
      if (readPid(pidFile) === child.pid) fs.rmSync(pidFile, { force: true });
    } catch {
      /* ignore */
    }
  });
  return proc;
}

export async function stopProc(proc, log) {
  if (!proc || proc.exitInfo) return;
  const t0 = Date.now();
  proc.child.kill(proc.stopSignal);
  let timer;
  const timedOut = await Promise.race([
    proc.exited.then(() => false),
    new Promise((r) => (timer = setTimeout(() => r(true), STOP_TIMEOUT_MS))),
  ]);
  clearTimeout(timer);
  if (timedOut) {
    log(`${proc.name}: did not stop within ${STOP_TIMEOUT_MS / 1000} s, killing it`);
    proc.child.kill('SIGKILL');
    await proc.exited;
  }
  log(`${proc.name}: stopped (${secs(t0)})`);
}

/**
 * launch() and waitReady() in one: a process that does not become ready is stopped before the
 * error is thrown. `check(output)` may read what the process logged since it started
 * (`output()`); a failure shows the tail of that log unless `describeFailure` says more.
 */
export async function launchUntilReady({ check, timeoutMs, log, describeFailure, ...launchOptions }) {
  const { logFile } = launchOptions;
  const offset = fileSize(logFile);
  const proc = launch(launchOptions);
  const output = () => readFrom(logFile, offset);
  try {
    await waitReady({
      proc,
      check: () => check(output),
      timeoutMs,
      describeFailure: describeFailure ?? (() => tailFile(logFile, offset) || `(no output in ${logFile})`),
    });
  } catch (error) {
    await stopProc(proc, log);
    throw error;
  }
  return proc;
}

/** Polls check() until it returns true; fails early if the process exits, or on timeout. */
async function waitReady({ proc, check, timeoutMs, describeFailure }) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (proc.exitInfo) {
      const { code, signal, error } = proc.exitInfo;
      throw new Error(
        `${proc.name} exited during startup (${error ? error.message : signal ? `signal ${signal}` : `exit code ${code}`})\n${describeFailure()}`,
      );
    }
    let ok = false;
    try {
      ok = await check();
    } catch {
      ok = false;
    }
    if (ok) return;
    if (Date.now() > end) {
      throw new Error(`${proc.name} did not become ready within ${timeoutMs / 1000} s\n${describeFailure()}`);
    }
    await sleep(150);
  }
}

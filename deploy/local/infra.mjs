// Local infrastructure for runs and tests, without Docker: Apache Kafka (single KRaft node,
// official jars resolved from Maven Central by Maven), PostgreSQL (Debian package) and Redis
// (Debian package). Dependency-free: only node: builtins.
//
//   ensureInfraInstalled({ log })                      installs what is missing (idempotent)
//   startInfra({ dataDir, ports, log, fast })          starts the three on 127.0.0.1
//   node deploy/local/infra.mjs [dataDir] [--fast]     manual use (see README.md)
//
// Progress goes to `log` (stderr by default); stdout stays clean.

import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Kafka release used (newest 4.x whose broker resolves from Maven Central). */
export const KAFKA_VERSION = process.env.TRILHA_KAFKA_VERSION || '4.4.0';
/** log4j2 binding for Kafka's slf4j 1.7 API; matches the log4j-core that Kafka 4.4 depends on. */
const LOG4J_VERSION = '2.25.5';

export const DEFAULT_PORTS = Object.freeze({
  kafka: 19092,
  kafkaController: 19093,
  kafkaSaslSsl: 19094,
  postgres: 15432,
  redis: 16379,
});

const PORT_ENV = {
  kafka: 'TRILHA_KAFKA_PORT',
  kafkaController: 'TRILHA_KAFKA_CONTROLLER_PORT',
  kafkaSaslSsl: 'TRILHA_KAFKA_SASL_SSL_PORT',
  postgres: 'TRILHA_POSTGRES_PORT',
  redis: 'TRILHA_REDIS_PORT',
};

const KAFKA_START_TIMEOUT_MS = 90_000;
const POSTGRES_START_TIMEOUT_MS = 60_000;
const REDIS_START_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 30_000;

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

// ---------------------------------------------------------------------------------------------
// small helpers

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const secs = (t0) => `${((Date.now() - t0) / 1000).toFixed(1)} s`;

function isExecutableFile(p) {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

function which(cmd) {
  for (const dir of (process.env.PATH || '/usr/local/bin:/usr/bin:/bin').split(path.delimiter)) {
    if (dir && isExecutableFile(path.join(dir, cmd))) return path.join(dir, cmd);
  }
  return null;
}

function javaBin() {
  const home = process.env.JAVA_HOME;
  if (home) {
    const p = path.join(home, 'bin', 'java');
    if (fs.existsSync(p)) return p;
  }
  return which('java');
}

/** PostgreSQL server bin dirs (Debian layout), newest major first. */
function pgBinDirs() {
  const root = '/usr/lib/postgresql';
  let entries = [];
  try {
    entries = fs.readdirSync(root);
  } catch {
    return [];
  }
  return entries
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a))
    .map((v) => ({ major: v, bin: path.join(root, v, 'bin') }))
    .filter(({ bin }) => ['initdb', 'postgres', 'pg_isready', 'psql'].every((b) => isExecutableFile(path.join(bin, b))));
}

function redisBin() {
  return which('redis-server') || (isExecutableFile('/usr/bin/redis-server') ? '/usr/bin/redis-server' : null);
}

function kafkaCacheDir() {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'trilha', `kafka-${KAFKA_VERSION}`);
}

const kafkaLibsDir = () => path.join(kafkaCacheDir(), 'libs');
const KAFKA_MARKER = '.trilha-complete.json';

function kafkaLibsComplete(libs = kafkaLibsDir()) {
  try {
    const marker = JSON.parse(fs.readFileSync(path.join(libs, KAFKA_MARKER), 'utf8'));
    if (marker.version !== KAFKA_VERSION || !Array.isArray(marker.jars) || marker.jars.length === 0) return false;
    return marker.jars.every((j) => fs.statSync(path.join(libs, j)).size > 0);
  } catch {
    return false;
  }
}

/** Runs a command to completion, capturing stdout+stderr (never inherits our stdout). */
function run(cmd, args, { cwd, env, uid, gid, input, timeoutMs } = {}) {
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

const tailText = (text, lines = 40) => text.trimEnd().split('\n').slice(-lines).join('\n');

function tailFile(file, fromOffset = 0, lines = 40) {
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

function readFrom(file, offset) {
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

const fileSize = (f) => {
  try {
    return fs.statSync(f).size;
  } catch {
    return 0;
  }
};

function lookupUser(name) {
  const r = spawnSync('getent', ['passwd', name], { encoding: 'utf8' });
  if (r.status !== 0 || !r.stdout) return null;
  const [, , uid, gid, , home] = r.stdout.trim().split(':');
  return { name, uid: Number(uid), gid: Number(gid), home };
}

// ---------------------------------------------------------------------------------------------
// installation

let aptUpdated = false;
let installPromise = null;

async function aptInstall(pkgs, log) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    log('infra: apt-get update');
    const u = await run('apt-get', ['update'], { env });
    if (u.code !== 0) throw new Error(`apt-get update failed (exit ${u.code}):\n${tailText(u.out)}`);
    aptUpdated = true;
  }
  const t0 = Date.now();
  log(`infra: apt-get install -y --no-install-recommends ${pkgs.join(' ')}`);
  const r = await run('apt-get', ['install', '-y', '--no-install-recommends', ...pkgs], { env });
  if (r.code !== 0) throw new Error(`apt-get install ${pkgs.join(' ')} failed (exit ${r.code}):\n${tailText(r.out)}`);
  log(`infra: installed ${pkgs.join(' ')} (${secs(t0)})`);
}

function kafkaPom() {
  const dep = (g, a, v) =>
    `    <dependency><groupId>${g}</groupId><artifactId>${a}</artifactId><version>${v}</version></dependency>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<!-- Generated by trilha deploy/local/infra.mjs: the classpath of a local Kafka ${KAFKA_VERSION} broker. -->
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.trilha</groupId>
  <artifactId>kafka-runtime</artifactId>
  <version>${KAFKA_VERSION}</version>
  <packaging>pom</packaging>
  <dependencies>
${dep('org.apache.kafka', 'kafka_2.13', KAFKA_VERSION)}
${dep('org.apache.logging.log4j', 'log4j-api', LOG4J_VERSION)}
${dep('org.apache.logging.log4j', 'log4j-core', LOG4J_VERSION)}
${dep('org.apache.logging.log4j', 'log4j-slf4j-impl', LOG4J_VERSION)}
  </dependencies>
</project>
`;
}

async function resolveKafkaLibs(log) {
  const cache = kafkaCacheDir();
  const libs = kafkaLibsDir();
  fs.mkdirSync(cache, { recursive: true });
  const pom = path.join(cache, 'pom.xml');
  fs.writeFileSync(pom, kafkaPom());
  const tmp = path.join(cache, `libs.tmp-${process.pid}-${crypto.randomBytes(4).toString('hex')}`);
  const t0 = Date.now();
  log(`kafka: resolving org.apache.kafka:kafka_2.13:${KAFKA_VERSION} from Maven Central into ${libs} (first run only)`);
  const mvn = which('mvn');
  const r = await run(
    mvn,
    ['-q', '-B', '-f', pom, 'dependency:copy-dependencies', `-DoutputDirectory=${tmp}`, '-DincludeScope=runtime'],
    { cwd: cache },
  );
  try {
    if (r.code !== 0) throw new Error(`mvn dependency:copy-dependencies failed (exit ${r.code}):\n${tailText(r.out)}`);
    const jars = fs.readdirSync(tmp).filter((f) => f.endsWith('.jar')).sort();
    for (const need of [`kafka_2.13-${KAFKA_VERSION}.jar`, `kafka-clients-${KAFKA_VERSION}.jar`, `log4j-slf4j-impl-${LOG4J_VERSION}.jar`]) {
      if (!jars.includes(need)) throw new Error(`mvn finished but ${need} is missing from ${tmp}`);
    }
    fs.writeFileSync(path.join(tmp, KAFKA_MARKER), JSON.stringify({ version: KAFKA_VERSION, jars }, null, 1));
    if (kafkaLibsComplete(libs)) {
      // another process finished first
      fs.rmSync(tmp, { recursive: true, force: true });
    } else {
      fs.rmSync(libs, { recursive: true, force: true });
      try {
        fs.renameSync(tmp, libs);
      } catch (e) {
        if (!kafkaLibsComplete(libs)) throw e;
        fs.rmSync(tmp, { recursive: true, force: true });
      }
    }
    log(`kafka: resolved ${jars.length} jars (${secs(t0)})`);
  } catch (e) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}

async function doEnsureInstalled(log) {
  const missingBins = () => {
    const m = [];
    if (pgBinDirs().length === 0) m.push({ what: 'PostgreSQL server (/usr/lib/postgresql/*/bin)', pkg: 'postgresql' });
    if (!redisBin()) m.push({ what: 'redis-server', pkg: 'redis-server' });
    if (!javaBin()) m.push({ what: 'java (JDK/JRE 17+)', pkg: 'default-jre-headless' });
    if (!kafkaLibsComplete() && !which('mvn')) m.push({ what: 'mvn (to fetch the Kafka jars)', pkg: 'maven' });
    return m;
  };
  let missing = missingBins();
  if (missing.length) {
    const pkgs = missing.map((m) => m.pkg);
    if (!isRoot) {
      throw new Error(
        `missing: ${missing.map((m) => m.what).join(', ')}. Install them first:\n` +
          `  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${pkgs.join(' ')}`,
      );
    }
    await aptInstall(pkgs, log);
    missing = missingBins();
    if (missing.length) throw new Error(`still missing after apt-get install: ${missing.map((m) => m.what).join(', ')}`);
  }
  if (!kafkaLibsComplete()) await resolveKafkaLibs(log);
}

/**
 * Installs what is missing: postgresql and redis-server through apt-get (root only), the Kafka
 * jars through Maven into ${XDG_CACHE_HOME:-~/.cache}/trilha/kafka-<version>/libs.
 * Idempotent and quick when everything is there.
 */
export async function ensureInfraInstalled({ log = console.error } = {}) {
  if (!installPromise) {
    installPromise = doEnsureInstalled(log).catch((e) => {
      installPromise = null;
      throw e;
    });
  }
  return installPromise;
}

// ---------------------------------------------------------------------------------------------
// processes

const hasSetpriv = () => which('setpriv') != null;

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

/** Stops processes left over by a previous run in this dataDir whose parent died abruptly. */
async function stopLeftovers(dataDir, log) {
  const candidates = [
    { name: 'kafka', comm: 'java', file: path.join(dataDir, 'kafka.pid'), signal: 'SIGTERM' },
    { name: 'postgres', comm: 'postgres', file: path.join(dataDir, 'postgres.pid'), signal: 'SIGINT' },
    { name: 'postgres', comm: 'postgres', file: path.join(dataDir, 'postgres', 'postmaster.pid'), signal: 'SIGINT' },
    { name: 'redis', comm: 'redis-server', file: path.join(dataDir, 'redis.pid'), signal: 'SIGTERM' },
  ];
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
  for (const f of ['kafka.pid', 'postgres.pid', 'redis.pid']) {
    const pid = readPid(path.join(dataDir, f));
    if (pid && !pidAlive(pid)) fs.rmSync(path.join(dataDir, f), { force: true });
  }
}

function checkPortFree(port) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', (e) => resolve(e.code || e.message));
    srv.listen({ port, host: '127.0.0.1', exclusive: true }, () => srv.close(() => resolve(null)));
  });
}

async function checkPorts(ports) {
  const problems = [];
  for (const [key, port] of Object.entries(ports)) {
    const err = await checkPortFree(port);
    if (err) {
      problems.push(
        err === 'EADDRINUSE'
          ? `port ${port} (${key}) on 127.0.0.1 is already in use by another process; set ${PORT_ENV[key]} to a free port`
          : `port ${port} (${key}) on 127.0.0.1 cannot be used (${err}); set ${PORT_ENV[key]} to another port`,
      );
    }
  }
  if (problems.length) throw new Error(problems.join('\n'));
}

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

async function stopProc(proc, log) {
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

/** Connects, writes `request`, resolves with whatever arrives until `done(buf)` says enough. */
function tcpExchange(port, request, done, timeoutMs = 2000) {
  return new Promise((resolve) => {
    let buf = Buffer.alloc(0);
    let settled = false;
    const finish = (v) => {
      if (settled) return;
      settled = true;
      sock.destroy();
      resolve(v);
    };
    const sock = net.connect({ port, host: '127.0.0.1' }, () => sock.write(request));
    sock.setTimeout(timeoutMs, () => finish(null));
    sock.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (done(buf)) finish(buf);
    });
    sock.on('error', () => finish(null));
    sock.on('close', () => finish(done(buf) ? buf : null));
  });
}

/** Kafka ApiVersions v0 request; true when the broker answers with error_code 0 and some APIs. */
async function kafkaApiVersionsOk(port) {
  const clientId = Buffer.from('trilha-infra');
  const body = Buffer.alloc(2 + 2 + 4 + 2 + clientId.length);
  body.writeInt16BE(18, 0); // api_key ApiVersions
  body.writeInt16BE(0, 2); // api_version 0
  body.writeInt32BE(7, 4); // correlation_id
  body.writeInt16BE(clientId.length, 8);
  clientId.copy(body, 10);
  const frame = Buffer.alloc(4 + body.length);
  frame.writeInt32BE(body.length, 0);
  body.copy(frame, 4);
  const res = await tcpExchange(port, frame, (b) => b.length >= 4 && b.length >= 4 + b.readInt32BE(0));
  if (!res || res.length < 14) return false;
  const correlationId = res.readInt32BE(4);
  const errorCode = res.readInt16BE(8);
  const apiCount = res.readInt32BE(10);
  return correlationId === 7 && errorCode === 0 && apiCount > 0;
}

async function redisPingOk(port) {
  const res = await tcpExchange(port, Buffer.from('*1\r\n$4\r\nPING\r\n'), (b) => b.includes('\r\n'));
  return res != null && res.toString('utf8').startsWith('+PONG');
}

// ---------------------------------------------------------------------------------------------
// Kafka

/** The user of the SASL_SSL listener; SASL PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512 all know it. */
const KAFKA_SASL_USER = 'trilha';
const KAFKA_SASL_MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'];

/**
 * What the SASL_SSL listener needs, created on the first start in <dataDir>/kafka and reused
 * after: a self-signed certificate for localhost and 127.0.0.1 (its own CA: clients trust it
 * with KAFKA_SSL_CA_FILE), its key, and the SASL user's password.
 */
function kafkaSecurityFiles(dir) {
  const tlsDir = path.join(dir, 'tls');
  const cert = path.join(tlsDir, 'kafka.crt');
  const key = path.join(tlsDir, 'kafka.key');
  if (!fs.existsSync(cert) || !fs.existsSync(key)) {
    fs.mkdirSync(tlsDir, { recursive: true, mode: 0o700 });
    // The certificate last: its presence means both files are complete.
    const r = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '825', '-subj', '/CN=localhost',
      '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-keyout', key, '-out', `${cert}.tmp`], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`kafka: openssl could not create the SASL_SSL listener's certificate (is openssl installed?):\n${tailText(`${r.stderr ?? ''}${r.error?.message ?? ''}`)}`);
    fs.renameSync(`${cert}.tmp`, cert);
  }
  const passwordFile = path.join(dir, 'sasl-password');
  if (!fs.existsSync(passwordFile)) fs.writeFileSync(passwordFile, `${crypto.randomBytes(18).toString('hex')}\n`, { mode: 0o600 });
  return { cert, key, password: fs.readFileSync(passwordFile, 'utf8').trim() };
}

/** A PEM file as one line of a .properties file (Java reads \n back as a newline). */
const pemProperty = (file) => fs.readFileSync(file, 'utf8').trim().replace(/\r?\n/g, '\\n');

async function startKafka({ dataDir, ports, log }) {
  const t0 = Date.now();
  const dir = path.join(dataDir, 'kafka');
  const logDirs = path.join(dir, 'data');
  fs.mkdirSync(logDirs, { recursive: true });
  const security = kafkaSecurityFiles(dir);
  const props = path.join(dir, 'server.properties');
  const log4j = path.join(dir, 'log4j2.xml');
  const brokerLog = path.join(dataDir, 'kafka.log');
  const outLog = path.join(dataDir, 'kafka.out');
  const saslSsl = 'listener.name.sasl_ssl';
  fs.writeFileSync(
    props,
    [
      '# Generated by deploy/local/infra.mjs on every start; edits are overwritten.',
      'process.roles=broker,controller',
      'node.id=1',
      `listeners=PLAINTEXT://127.0.0.1:${ports.kafka},CONTROLLER://127.0.0.1:${ports.kafkaController},SASL_SSL://127.0.0.1:${ports.kafkaSaslSsl}`,
      // SASL_SSL is advertised as localhost, the name its certificate is checked against.
      `advertised.listeners=PLAINTEXT://127.0.0.1:${ports.kafka},SASL_SSL://localhost:${ports.kafkaSaslSsl}`,
      'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SASL_SSL:SASL_SSL',
      'inter.broker.listener.name=PLAINTEXT',
      // What a production broker asks of its clients, on a listener of its own: TLS (a PEM key
      // store, the key unencrypted and inline) and SASL PLAIN or SCRAM. Everything else stays
      // on PLAINTEXT.
      `${saslSsl}.ssl.keystore.type=PEM`,
      `${saslSsl}.ssl.keystore.certificate.chain=${pemProperty(security.cert)}`,
      `${saslSsl}.ssl.keystore.key=${pemProperty(security.key)}`,
      'sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512',
      `${saslSsl}.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_${KAFKA_SASL_USER}="${security.password}";`,
      `${saslSsl}.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;`,
      `${saslSsl}.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;`,
      'controller.listener.names=CONTROLLER',
      `controller.quorum.voters=1@127.0.0.1:${ports.kafkaController}`,
      `log.dirs=${logDirs}`,
      'num.partitions=3',
      'auto.create.topics.enable=false',
      'offsets.topic.replication.factor=1',
      // One partition for consumer offsets: a single local broker needs no more, and the first
      // consumer-group join no longer waits for fifty partitions to be created.
      'offsets.topic.num.partitions=1',
      'transaction.state.log.replication.factor=1',
      'transaction.state.log.min.isr=1',
      'share.coordinator.state.topic.replication.factor=1',
      'share.coordinator.state.topic.min.isr=1',
      'group.initial.rebalance.delay.ms=0',
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  fs.chmodSync(props, 0o600); // it holds the listener's key and the SASL password
  // WARN and above to kafka.log, plus the server's own start/stop lines (used for readiness).
  fs.writeFileSync(
    log4j,
    `<?xml version="1.0" encoding="UTF-8"?>
<Configuration status="WARN" shutdownHook="disable">
  <Appenders>
    <File name="file" fileName="${brokerLog.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')}" append="true">
      <PatternLayout pattern="[%d{ISO8601}] %p %m (%c)%n"/>
    </File>
  </Appenders>
  <Loggers>
    <Logger name="kafka.server.KafkaRaftServer" level="INFO"/>
    <Root level="WARN"><AppenderRef ref="file"/></Root>
  </Loggers>
</Configuration>
`,
  );
  const java = javaBin();
  const cp = path.join(kafkaLibsDir(), '*');
  const jvmCommon = [`-Dlog4j2.configurationFile=${log4j}`, '-Djava.awt.headless=true', '-cp', cp];

  if (!fs.existsSync(path.join(logDirs, 'meta.properties'))) {
    log('kafka: formatting KRaft storage (first run)');
    const clusterId = crypto.randomBytes(16).toString('base64url');
    // Passed as --cluster-id=<id>: a random id may start with '-', which the parser would take for an option.
    // SCRAM credentials live in the cluster metadata: they are written when the storage is formatted.
    const scram = ['SCRAM-SHA-256', 'SCRAM-SHA-512'].flatMap((mechanism) => ['--add-scram', `${mechanism}=[name=${KAFKA_SASL_USER},password=${security.password}]`]);
    const r = await run(java, [...jvmCommon, 'kafka.tools.StorageTool', 'format', '-c', props, `--cluster-id=${clusterId}`, ...scram], {
      cwd: dir,
    });
    if (r.code !== 0) throw new Error(`kafka: StorageTool format failed (exit ${r.code}):\n${tailText(r.out)}`);
  }

  const logOffset = fileSize(brokerLog);
  const proc = launch({
    name: 'kafka',
    cmd: java,
    args: [
      '-Xms256m',
      '-Xmx768m',
      '-XX:+UseG1GC',
      // One GC thread: a pause of the broker's never takes both cores from the services beside it.
      '-XX:ParallelGCThreads=1',
      '-XX:MaxGCPauseMillis=20',
      '-XX:InitiatingHeapOccupancyPercent=35',
      ...jvmCommon,
      'kafka.Kafka',
      props,
    ],
    cwd: dir,
    logFile: outLog,
    pidFile: path.join(dataDir, 'kafka.pid'),
    stopSignal: 'SIGTERM',
  });
  try {
    let started = false;
    await waitReady({
      proc,
      timeoutMs: KAFKA_START_TIMEOUT_MS,
      // "[KafkaRaftServer nodeId=1] Kafka Server started" (Kafka 4.x) is logged once the broker
      // is unfenced; then the broker must answer an ApiVersions request on its port.
      check: async () => {
        if (!started) started = /Kafka Server started/.test(readFrom(brokerLog, logOffset));
        return started && (await kafkaApiVersionsOk(ports.kafka));
      },
      describeFailure: () => [tailFile(brokerLog, logOffset), tailFile(outLog)].filter(Boolean).join('\n') || `(no output; see ${brokerLog})`,
    });
  } catch (e) {
    await stopProc(proc, log);
    throw e;
  }
  log(`kafka: ready on 127.0.0.1:${ports.kafka}, SASL_SSL on localhost:${ports.kafkaSaslSsl} (${secs(t0)})`);
  return {
    proc,
    url: `127.0.0.1:${ports.kafka}`,
    saslSsl: { brokers: `localhost:${ports.kafkaSaslSsl}`, caFile: security.cert, username: KAFKA_SASL_USER, password: security.password, mechanisms: KAFKA_SASL_MECHANISMS },
  };
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL

/** The OS user postgres runs as: ourselves unless root (postgres refuses root). */
async function postgresUser(log) {
  if (!isRoot) return null;
  let u = lookupUser('postgres');
  if (u) return u;
  u = lookupUser('trilha-pg');
  if (u) return u;
  log('postgres: creating system user trilha-pg');
  const r = await run('useradd', ['--system', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', '--user-group', 'trilha-pg']);
  if (r.code !== 0) throw new Error(`useradd trilha-pg failed:\n${tailText(r.out)}`);
  u = lookupUser('trilha-pg');
  if (!u) throw new Error('useradd trilha-pg succeeded but the user cannot be looked up');
  return u;
}

/** Lets `user` traverse every ancestor of dir (mkdtemp dirs are 0700; /root often is too). */
function makeTraversable(dir, user, log) {
  const chain = [];
  for (let d = path.dirname(dir); ; d = path.dirname(d)) {
    chain.push(d);
    if (d === path.dirname(d)) break;
  }
  for (const d of chain) {
    const st = fs.statSync(d);
    const mode = st.mode & 0o7777;
    const canX = st.uid === user.uid ? mode & 0o100 : st.gid === user.gid ? mode & 0o010 : mode & 0o001;
    if (!canX) {
      fs.chmodSync(d, mode | 0o001);
      log(`postgres: added o+x to ${d} so that user ${user.name} can reach its data directory`);
    }
  }
}

async function startPostgres({ dataDir, ports, log, fast }) {
  const t0 = Date.now();
  const pgdata = path.join(dataDir, 'postgres');
  const pwFile = path.join(dataDir, 'postgres-password');
  const pgLog = path.join(dataDir, 'postgres.log');
  const user = await postgresUser(log);

  fs.mkdirSync(pgdata, { recursive: true, mode: 0o700 });
  if (user) {
    const st = fs.statSync(pgdata);
    if (st.uid !== user.uid) {
      const r = await run('chown', ['-R', `${user.uid}:${user.gid}`, pgdata]);
      if (r.code !== 0) throw new Error(`chown ${pgdata} failed:\n${tailText(r.out)}`);
    }
    makeTraversable(pgdata, user, log);
  }
  fs.chmodSync(pgdata, 0o700);

  // password: generated once, reused after
  let password = null;
  let passwordIsNew = false;
  try {
    password = fs.readFileSync(pwFile, 'utf8').trim() || null;
  } catch {
    /* first run */
  }
  if (!password) {
    password = crypto.randomBytes(18).toString('hex');
    fs.writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
    passwordIsNew = true;
  }
  fs.chmodSync(pwFile, 0o600);

  // binaries: those matching an existing cluster, else the newest installed
  const dirs = pgBinDirs();
  let pgVersion = null;
  try {
    pgVersion = fs.readFileSync(path.join(pgdata, 'PG_VERSION'), 'utf8').trim();
  } catch {
    /* not initialised */
  }
  const bins = pgVersion ? dirs.find((d) => d.major === pgVersion) : dirs[0];
  if (!bins) {
    throw new Error(
      pgVersion
        ? `postgres: ${pgdata} holds a PostgreSQL ${pgVersion} cluster but /usr/lib/postgresql/${pgVersion}/bin is not installed; install postgresql-${pgVersion} or delete ${pgdata}`
        : 'postgres: no PostgreSQL server binaries in /usr/lib/postgresql/*/bin',
    );
  }
  const bin = (b) => path.join(bins.bin, b);
  const asUser = user ? { uid: user.uid, gid: user.gid } : {};
  const pgEnv = { ...process.env, LC_ALL: 'C', LANG: 'C' };
  if (user) pgEnv.HOME = pgdata;

  if (!pgVersion) {
    for (const f of fs.readdirSync(pgdata)) fs.rmSync(path.join(pgdata, f), { recursive: true, force: true }); // half-done initdb
    log(`postgres: initdb (PostgreSQL ${bins.major}, first run)`);
    const tmpPw = path.join(dataDir, `.pg-pwfile-${crypto.randomBytes(4).toString('hex')}`);
    fs.writeFileSync(tmpPw, `${password}\n`, { mode: 0o600 });
    if (user) fs.chownSync(tmpPw, user.uid, user.gid);
    try {
      const args = ['-D', pgdata, '-U', 'trilha', `--pwfile=${tmpPw}`, '-A', 'scram-sha-256', '-E', 'UTF8', '--no-locale', '--no-instructions'];
      if (fast) args.push('--no-sync');
      const r = await run(bin('initdb'), args, { cwd: pgdata, env: pgEnv, ...asUser });
      if (r.code !== 0) throw new Error(`postgres: initdb failed (exit ${r.code}):\n${tailText(r.out)}`);
    } finally {
      fs.rmSync(tmpPw, { force: true });
    }
  } else if (passwordIsNew) {
    // the cluster exists but its password file was lost: set the new password in single-user mode
    log('postgres: password file missing, resetting the password of role trilha');
    const r = await run(bin('postgres'), ['--single', '-D', pgdata, '-j', 'postgres'], {
      cwd: pgdata,
      env: pgEnv,
      ...asUser,
      input: `ALTER ROLE trilha WITH PASSWORD '${password}';\n\n`,
    });
    if (r.code !== 0) throw new Error(`postgres: resetting the password failed (exit ${r.code}):\n${tailText(r.out)}`);
  }

  // unix socket inside the data dir (never /var/run/postgresql); off if the path is too long
  const socketDir = Buffer.byteLength(path.join(pgdata, `.s.PGSQL.${ports.postgres}`)) < 100 ? pgdata : '';
  const settings = {
    listen_addresses: '127.0.0.1',
    port: String(ports.postgres),
    unix_socket_directories: socketDir,
    ...(fast ? { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' } : {}),
  };
  const args = ['-D', pgdata];
  for (const [k, v] of Object.entries(settings)) args.push('-c', `${k}=${v}`);

  const logOffset = fileSize(pgLog);
  const proc = launch({
    name: 'postgres',
    cmd: bin('postgres'),
    args,
    cwd: pgdata,
    env: pgEnv,
    logFile: pgLog,
    pidFile: path.join(dataDir, 'postgres.pid'),
    user,
    stopSignal: 'SIGINT', // "fast" shutdown, as pg_ctl stop -m fast
  });
  const clientEnv = { ...process.env, PGPASSWORD: password, PGCONNECT_TIMEOUT: '5', PGUSER: 'trilha' };
  delete clientEnv.PGSERVICE;
  try {
    await waitReady({
      proc,
      timeoutMs: POSTGRES_START_TIMEOUT_MS,
      check: async () => (await run(bin('pg_isready'), ['-q', '-h', '127.0.0.1', '-p', String(ports.postgres), '-t', '2'], { env: clientEnv })).code === 0,
      describeFailure: () => tailFile(pgLog, logOffset) || `(no output in ${pgLog})`,
    });
    const sql = "SELECT 'CREATE DATABASE trilha' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'trilha')\\gexec\n";
    const r = await run(
      bin('psql'),
      ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-h', '127.0.0.1', '-p', String(ports.postgres), '-U', 'trilha', '-d', 'postgres'],
      { env: clientEnv, input: sql },
    );
    if (r.code !== 0) throw new Error(`postgres: creating database trilha failed (exit ${r.code}):\n${tailText(r.out)}`);
  } catch (e) {
    await stopProc(proc, log);
    throw e;
  }
  log(`postgres: ready on 127.0.0.1:${ports.postgres} (${secs(t0)})`);
  return { proc, url: `postgres://trilha:${password}@127.0.0.1:${ports.postgres}/trilha` };
}

// ---------------------------------------------------------------------------------------------
// Redis

async function startRedis({ dataDir, ports, log }) {
  const t0 = Date.now();
  const dir = path.join(dataDir, 'redis');
  fs.mkdirSync(dir, { recursive: true });
  const redisLog = path.join(dataDir, 'redis.log');
  const logOffset = fileSize(redisLog);
  const proc = launch({
    name: 'redis',
    cmd: redisBin(),
    args: [
      '--port', String(ports.redis),
      '--bind', '127.0.0.1',
      '--dir', dir,
      '--save', '',
      '--appendonly', 'no',
      '--daemonize', 'no',
      '--logfile', '',
    ],
    cwd: dir,
    logFile: redisLog,
    pidFile: path.join(dataDir, 'redis.pid'),
    stopSignal: 'SIGTERM',
  });
  try {
    await waitReady({
      proc,
      timeoutMs: REDIS_START_TIMEOUT_MS,
      check: () => redisPingOk(ports.redis),
      describeFailure: () => tailFile(redisLog, logOffset) || `(no output in ${redisLog})`,
    });
  } catch (e) {
    await stopProc(proc, log);
    throw e;
  }
  log(`redis: ready on 127.0.0.1:${ports.redis} (${secs(t0)})`);
  return { proc, url: `redis://127.0.0.1:${ports.redis}` };
}

// ---------------------------------------------------------------------------------------------
// start / stop

/**
 * Starts Kafka, PostgreSQL and Redis on 127.0.0.1 with their data under dataDir (created if
 * missing, reused if present). Options: fast (tests): fsync/synchronous_commit/full_page_writes
 * off for PostgreSQL.
 */
export async function startInfra({ dataDir, ports, log = console.error, fast = false } = {}) {
  if (typeof dataDir !== 'string' || !path.isAbsolute(dataDir)) {
    throw new Error(`startInfra: dataDir must be an absolute path (got ${JSON.stringify(dataDir)})`);
  }
  const p = {};
  for (const key of Object.keys(PORT_ENV)) {
    const v = ports?.[key];
    if (!Number.isInteger(v) || v < 1 || v > 65535) {
      throw new Error(`startInfra: ports.${key} must be a port number (got ${JSON.stringify(v)}; env ${PORT_ENV[key]})`);
    }
    p[key] = v;
  }
  const dupes = Object.entries(p).filter(([, v], i, all) => all.findIndex(([, w]) => w === v) !== i);
  if (dupes.length) throw new Error(`startInfra: ports must differ (${dupes.map(([k, v]) => `${k}=${v}`).join(', ')})`);

  const t0 = Date.now();
  await ensureInfraInstalled({ log });
  fs.mkdirSync(dataDir, { recursive: true });
  const dir = fs.realpathSync(dataDir);
  await stopLeftovers(dir, log);
  await checkPorts(p);

  const opts = { dataDir: dir, ports: p, log, fast };
  const starters = { kafka: startKafka, postgres: startPostgres, redis: startRedis };
  const names = Object.keys(starters);
  const results = await Promise.allSettled(names.map((name) => starters[name](opts)));
  // The process of each component (its last one while stopped on purpose); startComponent() swaps it.
  const current = {};
  results.forEach((r, i) => { if (r.status === 'fulfilled') current[names[i]] = r.value; });
  const failures = results.filter((r) => r.status === 'rejected').map((r) => r.reason);
  // Components stopped on purpose (fault tests), until started again.
  const down = new Set();

  let stopping = null;
  const stop = () => {
    if (!stopping) {
      stopping = Promise.all(Object.values(current).map((s) => stopProc(s.proc, log))).then(() => undefined);
    }
    return stopping;
  };
  if (failures.length) {
    await stop();
    const err = new Error(failures.map((e) => (e instanceof Error ? e.message : String(e))).join('\n\n'));
    err.causes = failures;
    throw err;
  }
  const watch = (name) => {
    const s = current[name];
    s.proc.exited.then(({ code, signal }) => {
      if (!stopping && !down.has(name) && current[name] === s) {
        log(`${s.proc.name}: exited unexpectedly (${signal ? `signal ${signal}` : `exit code ${code}`}); logs are in ${dir}`);
      }
    });
  };
  names.forEach(watch);

  const known = (name) => {
    if (!starters[name]) throw new Error(`unknown component ${name} (one of ${names.join(', ')})`);
  };
  /** Stops one component, as a broker or database outage looks to the services (fault tests). */
  const stopComponent = async (name) => {
    known(name);
    if (down.has(name)) return;
    down.add(name);
    await stopProc(current[name].proc, log);
  };
  /** Starts a component stopped with stopComponent again, on the same port and data. */
  const startComponent = async (name) => {
    known(name);
    if (!down.has(name)) return;
    current[name] = await starters[name](opts);
    down.delete(name);
    watch(name);
  };
  /** Stops one component, waits `downMs`, and starts it again: a broker or database restart. */
  const restart = async (name, { downMs = 0 } = {}) => {
    await stopComponent(name);
    await new Promise((resolve) => setTimeout(resolve, downMs));
    await startComponent(name);
  };

  log(`infra: all up in ${secs(t0)} (data in ${dir})`);
  return {
    kafkaBrokers: current.kafka.url,
    kafkaSaslSsl: current.kafka.saslSsl,
    databaseUrl: current.postgres.url,
    redisUrl: current.redis.url,
    stopComponent,
    startComponent,
    restart,
    stop,
  };
}

// ---------------------------------------------------------------------------------------------
// CLI: node deploy/local/infra.mjs [dataDir] [--fast]

function portFromEnv(key) {
  const raw = process.env[PORT_ENV[key]];
  if (raw == null || raw === '') return DEFAULT_PORTS[key];
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new Error(`${PORT_ENV[key]}=${raw} is not a port number`);
  return n;
}

async function main() {
  const args = process.argv.slice(2);
  const fast = args.includes('--fast');
  const positional = args.filter((a) => !a.startsWith('--'));
  const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  const dataDir = path.resolve(positional[0] || path.join(repoRoot, '.trilha', 'local'));
  const ports = Object.fromEntries(Object.keys(PORT_ENV).map((k) => [k, portFromEnv(k)]));
  const infra = await startInfra({ dataDir, ports, fast });
  process.stdout.write(
    `KAFKA_BROKERS=${infra.kafkaBrokers}\nDATABASE_URL=${infra.databaseUrl}\nREDIS_URL=${infra.redisUrl}\n`,
  );
  console.error('infra: running; Ctrl-C to stop');
  let stopping = false;
  const onSignal = (sig) => {
    if (stopping) return;
    stopping = true;
    console.error(`infra: ${sig}, stopping`);
    infra.stop().then(
      () => process.exit(0),
      (e) => {
        console.error(e);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e) => {
    console.error(`infra: ${e instanceof Error ? e.message : e}`);
    process.exit(1);
  });
}

// The process helpers the stack's other local servers (zipkin.mjs) start theirs with.
export { javaBin, launch, run, stopProc, tailFile, waitReady, which };

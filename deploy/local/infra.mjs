// Local infrastructure for runs and tests, without Docker: Apache Kafka (kafka.mjs: a single
// KRaft node, official jars resolved from Maven Central by Maven), PostgreSQL (postgres.mjs,
// Debian package) and Redis (redis.mjs, Debian package), started with the process helpers of
// processes.mjs. This module is the entry point: installation, ports, starting and stopping
// the three together, and the CLI. Dependency-free: only node: builtins.
//
//   ensureInfraInstalled({ log })                      installs what is missing (idempotent)
//   startInfra({ dataDir, ports, host, log, fast })    starts the three on host (127.0.0.1 by default)
//   node deploy/local/infra.mjs [dataDir] [--fast]     manual use (see README.md)
//
// Progress goes to `log` (stderr by default); stdout stays clean.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { kafkaLeftovers, kafkaLibsComplete, resolveKafkaLibs, startKafka } from './kafka.mjs';
import { pgBinDirs, postgresLeftovers, startPostgres } from './postgres.mjs';
import { checkPorts, isRoot, javaBin, run, secs, stopLeftovers, stopProc, tailText, which } from './processes.mjs';
import { redisBin, redisLeftovers, startRedis } from './redis.mjs';

export { KAFKA_VERSION } from './kafka.mjs';

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

/** Each component: how it starts, and what a previous run in the data directory may have left running. */
const COMPONENTS = {
  kafka: { start: startKafka, leftovers: kafkaLeftovers },
  postgres: { start: startPostgres, leftovers: postgresLeftovers },
  redis: { start: startRedis, leftovers: redisLeftovers },
};

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

async function doEnsureInstalled(log) {
  const missingBins = () => {
    const m = [];
    if (pgBinDirs().length === 0) m.push({ what: 'PostgreSQL server (/usr/lib/postgresql/*/bin)', pkg: 'postgresql' });
    if (!redisBin()) m.push({ what: 'redis-server', pkg: 'redis-server' });
    if (!javaBin()) m.push({ what: 'java (JDK/JRE 17+)', pkg: 'default-jre-headless' });
    if (!kafkaLibsComplete() && !which('mvn')) m.push({ what: 'mvn (to fetch the Kafka jars)', pkg: 'maven' });
    if (!which('prometheus')) m.push({ what: 'prometheus (the local stack scrapes the services and evaluates the alerts)', pkg: 'prometheus' });
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
    // The stack runs its own Prometheus: the package's service, started by the install where
    // systemd runs, would scrape nothing of it and hold port 9090.
    if (pkgs.includes('prometheus') && which('systemctl')) await run('systemctl', ['disable', '--now', 'prometheus']);
    missing = missingBins();
    if (missing.length) throw new Error(`still missing after apt-get install: ${missing.map((m) => m.what).join(', ')}`);
  }
  if (!kafkaLibsComplete()) await resolveKafkaLibs(log);
}

/**
 * Installs what is missing: postgresql, redis-server and prometheus through apt-get (root only), the Kafka
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
// start / stop

/**
 * Starts Kafka, PostgreSQL and Redis on `host` (loopback by default; a local cluster's pods reach
 * them on their bridge's address) with their data under dataDir (created if missing, reused if
 * present). Options: fast (tests): fsync/synchronous_commit/full_page_writes off for PostgreSQL.
 */
export async function startInfra({ dataDir, ports, host = '127.0.0.1', log = console.error, fast = false } = {}) {
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
  const names = Object.keys(COMPONENTS);
  await stopLeftovers(dir, names.flatMap((name) => COMPONENTS[name].leftovers(dir)), log);
  await checkPorts(p, PORT_ENV);

  const opts = { dataDir: dir, host, ports: p, log, fast };
  const results = await Promise.allSettled(names.map((name) => COMPONENTS[name].start(opts)));
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
    if (!COMPONENTS[name]) throw new Error(`unknown component ${name} (one of ${names.join(', ')})`);
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
    current[name] = await COMPONENTS[name].start(opts);
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


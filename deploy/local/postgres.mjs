// PostgreSQL for local runs and tests: Debian's server binaries (/usr/lib/postgresql/<major>/bin)
// running one cluster in <dataDir>/postgres on 127.0.0.1, with superuser and database `trilha`
// and password authentication. As root it runs as an unprivileged OS user (postgres refuses
// root). Dependency-free: only node: builtins.
//
//   pgBinDirs()                                     installed server bin dirs, newest first
//   startPostgres({ dataDir, ports, log, fast })    { proc, url }

import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isExecutableFile, isRoot, launchUntilReady, run, secs, stopProc, tailText } from './processes.mjs';

const POSTGRES_START_TIMEOUT_MS = 60_000;

/** PostgreSQL server bin dirs (Debian layout), newest major first. */
export function pgBinDirs() {
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

function lookupUser(name) {
  const r = spawnSync('getent', ['passwd', name], { encoding: 'utf8' });
  if (r.status !== 0 || !r.stdout) return null;
  const [, , uid, gid, , home] = r.stdout.trim().split(':');
  return { name, uid: Number(uid), gid: Number(gid), home };
}

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

/**
 * The server a previous run in dataDir may have left running (stopLeftovers in processes.mjs):
 * by our pid file, or by postmaster.pid, which the server writes and removes itself.
 */
export const postgresLeftovers = (dataDir) => [
  { name: 'postgres', comm: 'postgres', file: path.join(dataDir, 'postgres.pid'), signal: 'SIGINT' },
  { name: 'postgres', comm: 'postgres', file: path.join(dataDir, 'postgres', 'postmaster.pid'), signal: 'SIGINT', serviceOwned: true },
];

/**
 * Starts the cluster in <dataDir>/postgres (initdb on the first start; the password generated
 * once into <dataDir>/postgres-password), waits until it answers and database trilha exists.
 * `fast` (tests) turns off fsync, synchronous_commit and full_page_writes.
 */
export async function startPostgres({ dataDir, host, ports, log, fast }) {
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

  // Listening on another address than loopback (the pods' bridge of a local cluster), clients of
  // the networks this machine is on log in with the password, as on loopback.
  const hba = path.join(pgdata, 'pg_hba.conf');
  const sameNet = 'host all all samenet scram-sha-256';
  if (host !== '127.0.0.1' && !fs.readFileSync(hba, 'utf8').includes(sameNet)) fs.appendFileSync(hba, `${sameNet}\n`);

  // unix socket inside the data dir (never /var/run/postgresql); off if the path is too long
  const socketDir = Buffer.byteLength(path.join(pgdata, `.s.PGSQL.${ports.postgres}`)) < 100 ? pgdata : '';
  const settings = {
    listen_addresses: host,
    port: String(ports.postgres),
    unix_socket_directories: socketDir,
    ...(fast ? { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' } : {}),
    // Extra settings for profiling, e.g. TRILHA_POSTGRES_SETTINGS='shared_preload_libraries=pg_stat_statements'.
    ...Object.fromEntries((process.env.TRILHA_POSTGRES_SETTINGS ?? '').split(/\s+/).filter(Boolean).map((setting) => setting.split(/=(.*)/s).slice(0, 2))),
  };
  const args = ['-D', pgdata];
  for (const [k, v] of Object.entries(settings)) args.push('-c', `${k}=${v}`);

  const clientEnv = { ...process.env, PGPASSWORD: password, PGCONNECT_TIMEOUT: '5', PGUSER: 'trilha' };
  delete clientEnv.PGSERVICE;
  const proc = await launchUntilReady({
    name: 'postgres',
    cmd: bin('postgres'),
    args,
    cwd: pgdata,
    env: pgEnv,
    logFile: pgLog,
    pidFile: path.join(dataDir, 'postgres.pid'),
    user,
    stopSignal: 'SIGINT', // "fast" shutdown, as pg_ctl stop -m fast
    check: async () => (await run(bin('pg_isready'), ['-q', '-h', host, '-p', String(ports.postgres), '-t', '2'], { env: clientEnv })).code === 0,
    timeoutMs: POSTGRES_START_TIMEOUT_MS,
    log,
  });
  try {
    const sql = "SELECT 'CREATE DATABASE trilha' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'trilha')\\gexec\n";
    const r = await run(
      bin('psql'),
      ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-h', host, '-p', String(ports.postgres), '-U', 'trilha', '-d', 'postgres'],
      { env: clientEnv, input: sql },
    );
    if (r.code !== 0) throw new Error(`postgres: creating database trilha failed (exit ${r.code}):\n${tailText(r.out)}`);
  } catch (e) {
    await stopProc(proc, log);
    throw e;
  }
  log(`postgres: ready on ${host}:${ports.postgres} (${secs(t0)})`);
  return { proc, url: `postgres://trilha:${password}@${host}:${ports.postgres}/trilha` };
}

// Benchmark: `npm start` to "Trilha is ready" on a warm machine.
//
//   Target: ≤ 60 s (docs/BENCHMARKS.md).
//
//   npm run bench:startup [-- --ceiling=true --keep]
//
// Runs `npm start` twice as a child process in its own process group, with TRILHA_DATA_DIR in a
// temporary directory and every TRILHA_*_PORT on ports of its own (shifted by
// TRILHA_PORT_OFFSET): first on a fresh data directory (cold data: initdb, Kafka storage format,
// topics, migrations, certificate; warm caches: node_modules installed, JVM/OS caches warm), then
// again on the same data directory (warm). Each time it measures the wall time from spawning
// `npm start` until its stdout says "Trilha is ready", then sends SIGINT to the group and waits
// for it to exit. Unless --ceiling=false, a baseline comes first in the same run: the
// infrastructure alone (deploy/local/infra.mjs, durable, as `npm start` starts it) on the same
// ports, fresh then reused, in a data directory of its own; each run's ratio is to the baseline
// of the same kind.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startInfra } from '../deploy/local/infra.mjs';
import { stackPorts } from '../tools/stack.mjs';
import { BASE_PORTS, parseArgs, say } from './lib/bench-kit.mjs';
import { times } from './lib/latency.mjs';
import { describeMachine, machine } from './lib/machine.mjs';

const root = resolve(import.meta.dirname, '..');
const args = parseArgs({ ceiling: true, keep: false });
const TARGET_S = 60;
const READY_TIMEOUT_MS = 300_000;
const EXIT_TIMEOUT_MS = 60_000;

// Every port `npm start` opens, as the TRILHA_*_PORT variables it reads (tools/stack.mjs).
const ports = stackPorts(BASE_PORTS.startup);
const PORT_ENV = {
  TRILHA_GATEWAY_PORT: ports.gateway,
  TRILHA_KAFKA_PORT: ports.kafka,
  TRILHA_KAFKA_CONTROLLER_PORT: ports.kafkaController,
  TRILHA_KAFKA_SASL_SSL_PORT: ports.kafkaSaslSsl,
  TRILHA_POSTGRES_PORT: ports.postgres,
  TRILHA_REDIS_PORT: ports.redis,
  ...Object.fromEntries(Object.values(ports.ops).map((port, index) => [`TRILHA_OPS_${index}_PORT`, port])),
  ...Object.fromEntries(Object.values(ports.internal).map((port, index) => [`TRILHA_INTERNAL_${index}_PORT`, port])),
};

const dataDir = mkdtempSync(join(tmpdir(), 'trilha-bench-startup-'));
const baselineDir = join(dataDir, 'baseline');
let current = null; // the running `npm start`, if any

/** Starts `npm start`; resolves with the seconds to "Trilha is ready", then stops it. */
function runOnce(label) {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn('npm', ['start'], {
      cwd: root,
      detached: true, // its own process group: SIGINT reaches npm, node and the services together
      env: { ...process.env, ...Object.fromEntries(Object.entries(PORT_ENV).map(([k, v]) => [k, String(v)])), TRILHA_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    current = child;
    let stdout = '';
    let stderr = '';
    let readyAfter = null;
    const phases = [];
    const exited = new Promise((r) => child.once('exit', (code, signal) => r({ code, signal })));
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      for (const line of String(chunk).split('\n')) {
        // bootstrap steps ("… done (1.2 s)") and the infrastructure's summary line
        if (/ done \(|infra: all up in/.test(line)) phases.push(line.replace(/^» /, '').trim());
      }
    });
    const timer = setTimeout(() => {
      say(`${label}: not ready after ${READY_TIMEOUT_MS / 1000} s; stopping it`);
      stopGroup(child).then(() => reject(new Error(`not ready in time; stderr tail:\n${stderr.split('\n').slice(-20).join('\n')}`)));
    }, READY_TIMEOUT_MS);
    child.stdout.on('data', async (chunk) => {
      stdout += chunk;
      if (readyAfter !== null || !stdout.includes('Trilha is ready')) return;
      readyAfter = (performance.now() - started) / 1000;
      clearTimeout(timer);
      const inner = /Trilha is ready \(([\d.]+) s\)/.exec(stdout)?.[1];
      say(`${label}: ready after ${readyAfter.toFixed(1)} s; sending SIGINT to the process group`);
      const stopStarted = performance.now();
      const { code, signal } = await stopGroup(child);
      const stopSeconds = (performance.now() - stopStarted) / 1000;
      say(`${label}: exited (${signal ? `signal ${signal}` : `code ${code}`}) ${stopSeconds.toFixed(1)} s after SIGINT`);
      resolvePromise({ label, seconds: readyAfter, stackSeconds: inner ? Number(inner) : null, stopSeconds, exit: signal ?? code, phases });
    });
    exited.then(({ code, signal }) => {
      if (readyAfter === null) {
        clearTimeout(timer);
        reject(new Error(`npm start exited (${signal ?? code}) before it was ready; stderr tail:\n${stderr.split('\n').slice(-20).join('\n')}`));
      }
      current = null;
    });
  });
}

/** The baseline: seconds until the infrastructure alone is up in `dir` (created if missing, reused if there), then stopped. */
async function infraAlone(label, dir) {
  const started = performance.now();
  const infra = await startInfra({
    dataDir: dir,
    ports: { kafka: ports.kafka, kafkaController: ports.kafkaController, kafkaSaslSsl: ports.kafkaSaslSsl, postgres: ports.postgres, redis: ports.redis },
    log: () => undefined,
    fast: false,
  });
  const seconds = (performance.now() - started) / 1000;
  await infra.stop();
  say(`${label}: the infrastructure alone was up after ${seconds.toFixed(1)} s`);
  return seconds;
}

function stopGroup(child) {
  const exited = child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve({ code: child.exitCode, signal: child.signalCode })
    : new Promise((r) => child.once('exit', (code, signal) => r({ code, signal })));
  try {
    process.kill(-child.pid, 'SIGINT');
  } catch {
    /* already gone */
  }
  const kill = setTimeout(() => {
    say(`npm start did not exit within ${EXIT_TIMEOUT_MS / 1000} s of SIGINT; sending SIGKILL to its group`);
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }, EXIT_TIMEOUT_MS);
  return exited.finally(() => clearTimeout(kill));
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    say(`${signal}: aborting`);
    if (current) await stopGroup(current);
    say(`kept ${dataDir}`);
    process.exit(130);
  });
}

async function main() {
  const facts = machine();
  say(`machine: ${describeMachine(facts)}, load average ${facts.loadAverage}; data dir ${dataDir}`);
  const baseline = args.ceiling ? [await infraAlone('baseline 1 (fresh)', baselineDir), await infraAlone('baseline 2 (reused)', baselineDir)] : [];
  rmSync(baselineDir, { recursive: true, force: true });
  const runs = [];
  runs.push(await runOnce('run 1 (fresh data dir)'));
  runs.push(await runOnce('run 2 (same data dir)'));
  const pass = runs.every((run) => run.seconds <= TARGET_S);
  const out = [
    '',
    '`npm start` → "Trilha is ready"',
    `  date            ${facts.date}`,
    `  machine         ${describeMachine(facts)}`,
    ...(args.ceiling ? [`  baseline        the infrastructure alone (Kafka, PostgreSQL with fsync on, Redis), same ports: fresh ${baseline[0].toFixed(1)} s, reused ${baseline[1].toFixed(1)} s`] : []),
    ...runs.flatMap((run, index) => [
      `  ${run.label.padEnd(24)} ${run.seconds.toFixed(1)} s (${run.seconds <= TARGET_S ? 'PASS' : 'FAIL'}${args.ceiling ? `; ${run.seconds.toFixed(1)} / ${baseline[index].toFixed(1)} s = ${times(run.seconds / baseline[index])} the baseline` : ''}); ` +
        `stack start alone ${run.stackSeconds ?? '?'} s; stopped ${run.stopSeconds.toFixed(1)} s after SIGINT (exit ${run.exit})`,
      ...run.phases.map((phase) => `      ${phase}`),
    ]),
    `  target          ≤ ${TARGET_S} s: ${pass ? 'PASS' : 'FAIL'}`,
    '',
  ];
  process.stdout.write(out.join('\n'));
  return pass;
}

main().then(
  (pass) => {
    if (!args.keep) rmSync(dataDir, { recursive: true, force: true });
    process.exit(pass ? 0 : 1);
  },
  (error) => {
    say(`benchmark failed: ${error.message}`);
    say(`kept ${dataDir}`);
    process.exit(1);
  },
);

// `npm test` after lint, type-check and build: a fresh stack in a temporary directory on the
// test ports, then the jest projects against it: unit, integration and end-to-end in parallel,
// then the serial tests alone, one file at a time (they restart infrastructure, start replicas
// that join the services' consumer groups, or rebuild read models). Last, the slowest tests.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { startControlPlane } from '../deploy/cluster/control-plane.mjs';
import { ensureSchemathesis } from './schemathesis.mjs';
import { PORT_PROFILES, stackPorts, startStack } from './stack.mjs';

const root = resolve(import.meta.dirname, '..');
const dataDir = mkdtempSync(join(tmpdir(), 'trilha-test-'));
const ports = stackPorts(PORT_PROFILES.test);
const say = (line) => process.stderr.write(`» ${line}\n`);

const schemathesis = ensureSchemathesis(say);
say(`starting the test stack in ${dataDir}`);
// Webhook times compressed so the tests can see them pass: retries (the default is
// 10s,1m,5m,30m,2h), so all five are seen; a rotation's overlap (24h); and how long every
// attempt must fail before the webhook is deactivated (5d), longer than any other test's failures.
const webhookSettings = { WEBHOOK_RETRY_SCHEDULE: '500ms,1s,1500ms,2s,2500ms', WEBHOOK_SECRET_OVERLAP: '5s', WEBHOOK_DISABLE_AFTER: '30s' };
// Prometheus scrapes and evaluates the alerts every second, so a test sees an alert fire within seconds.
const stack = await startStack({ dataDir, ports, fast: true, logLevel: 'debug', log: (line) => say(line), webhookSettings, scrapeIntervalSeconds: 1 });
// A Kubernetes API server for the charts' tests, on the ports after the services' (no node: it runs no pod).
const controlPlane = await startControlPlane({ dataDir: join(dataDir, 'kubernetes'), ports: ports.kubernetes, log: (line) => say(line) }).catch(async (error) => {
  await stack.stop();
  throw error;
});

// Fault tests ask this process to stop, start or restart a component of the stack:
// POST /stop/<kafka|postgres|redis>, POST /start/<…>, POST /restart/<…>?downMs=…
const control = createServer(async (request, response) => {
  const url = new URL(request.url, 'http://control');
  const match = /^\/(stop|start|restart)\/(\w+)$/.exec(url.pathname);
  if (request.method !== 'POST' || !match) return response.writeHead(404).end();
  const [, action, component] = match;
  try {
    if (action === 'stop') await stack.infra.stopComponent(component);
    else if (action === 'start') await stack.infra.startComponent(component);
    else await stack.infra.restart(component, { downMs: Number(url.searchParams.get('downMs') ?? 0) });
    response.writeHead(204).end();
  } catch (error) {
    response.writeHead(500).end(String(error.message));
  }
});
await new Promise((done) => control.listen(0, '127.0.0.1', done));

const stackFile = join(dataDir, 'stack.json');
writeFileSync(stackFile, JSON.stringify({
  dataDir,
  baseUrl: stack.baseUrl,
  adminApiKey: stack.adminApiKey,
  caFile: stack.caFile,
  ports,
  zipkinUrl: stack.zipkin.url,
  prometheusUrl: stack.prometheus.url,
  infra: { databaseUrl: stack.infra.databaseUrl, kafkaBrokers: stack.infra.kafkaBrokers, kafkaSaslSsl: stack.infra.kafkaSaslSsl, redisUrl: stack.infra.redisUrl },
  env: stack.env,
  controlUrl: `http://127.0.0.1:${control.address().port}`,
  schemathesis,
  kubeconfig: controlPlane.kubeconfig,
}, null, 2));

/** Runs jest with the given arguments; returns its exit code, its counts and its per-file results. */
async function jest(label, args) {
  const resultsFile = join(dataDir, `jest-${label}.json`);
  const child = spawn(process.execPath, [join(root, 'node_modules/jest/bin/jest.js'), '--ci', '--json', `--outputFile=${resultsFile}`, ...args], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, TRILHA_STACK_FILE: stackFile },
  });
  const code = await new Promise((done) => child.on('exit', (exitCode) => done(exitCode ?? 1)));
  const results = existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) : { numPassedTests: 0, numFailedTests: 0, numPendingTests: 0, testResults: [] };
  return { code, passed: results.numPassedTests, failed: results.numFailedTests, skipped: results.numPendingTests, files: results.testResults };
}

/** The slowest test files and tests of every run, so that a suite that creeps is seen. */
function reportSlowest(runs, count = 10) {
  const files = runs.flatMap((run) => run.files).map((file) => ({ name: relative(root, file.name), ms: file.endTime - file.startTime, tests: file.assertionResults }));
  const tests = files.flatMap((file) => file.tests.map((test) => ({ name: `${file.name} › ${test.fullName}`, ms: test.duration ?? 0 })));
  const lines = (items) => items.sort((a, b) => b.ms - a.ms).slice(0, count).map(({ name, ms }) => `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${name}`);
  say(`slowest test files:\n${lines(files).join('\n')}`);
  say(`slowest tests:\n${lines(tests).join('\n')}`);
}

const extra = process.argv.slice(3);
const runs = [];
try {
  runs.push(await jest('main', [...extra, '--passWithNoTests', '--selectProjects', 'unit', 'integration', 'e2e']));
  runs.push(await jest('serial', [...extra, '--runInBand', '--passWithNoTests', '--selectProjects', 'serial']));
} finally {
  say('stopping the test stack');
  control.close();
  await controlPlane.stop();
  await stack.stop();
}
reportSlowest(runs);
const failed = runs.some((run) => run.code !== 0);
if (failed) say(`kept ${dataDir} (logs in ${join(dataDir, 'logs')})`);
else rmSync(dataDir, { recursive: true, force: true });
const total = (key) => runs.reduce((sum, run) => sum + run[key], 0);
process.stdout.write(`tests: ${total('passed')} passed, ${total('failed')} failed, ${total('skipped')} skipped\n`);
process.exit(failed ? 1 : 0);

// `npm test` after lint, type-check and build: a fresh stack in a temporary directory on the
// test ports, then the jest projects against it: unit, integration and end-to-end in parallel,
// then the fault tests (which restart Kafka and PostgreSQL under the running services) alone.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stackPorts, startStack } from './stack.mjs';

const root = resolve(import.meta.dirname, '..');
const dataDir = mkdtempSync(join(tmpdir(), 'trilha-test-'));
const ports = stackPorts({ gateway: 28443, kafka: 29092, postgres: 25432, redis: 26379, ops: 28180 });
const say = (line) => process.stderr.write(`» ${line}\n`);

say(`starting the test stack in ${dataDir}`);
// Webhook retries on a compressed schedule (the default is 10s,1m,5m,30m,2h), so the tests can
// see all five of them.
const stack = await startStack({ dataDir, ports, fast: true, logLevel: 'debug', log: (line) => say(line), webhookRetrySchedule: '500ms,1s,1500ms,2s,2500ms' });

// Fault tests ask this process to restart a component of the stack: POST /restart/<kafka|postgres|redis>?downMs=…
const control = createServer(async (request, response) => {
  const url = new URL(request.url, 'http://control');
  const match = /^\/restart\/(\w+)$/.exec(url.pathname);
  if (request.method !== 'POST' || !match) return response.writeHead(404).end();
  try {
    await stack.infra.restart(match[1], { downMs: Number(url.searchParams.get('downMs') ?? 0) });
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
  infra: { databaseUrl: stack.infra.databaseUrl, kafkaBrokers: stack.infra.kafkaBrokers, kafkaSaslSsl: stack.infra.kafkaSaslSsl, redisUrl: stack.infra.redisUrl },
  env: stack.env,
  controlUrl: `http://127.0.0.1:${control.address().port}`,
}, null, 2));

/** Runs jest with the given arguments; returns its exit code and its counts. */
async function jest(label, args) {
  const resultsFile = join(dataDir, `jest-${label}.json`);
  const child = spawn(process.execPath, [join(root, 'node_modules/jest/bin/jest.js'), '--ci', '--json', `--outputFile=${resultsFile}`, ...args], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, TRILHA_STACK_FILE: stackFile },
  });
  const code = await new Promise((done) => child.on('exit', (exitCode) => done(exitCode ?? 1)));
  const results = existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) : { numPassedTests: 0, numFailedTests: 0, numPendingTests: 0 };
  return { code, passed: results.numPassedTests, failed: results.numFailedTests, skipped: results.numPendingTests };
}

const extra = process.argv.slice(3);
const runs = [];
try {
  runs.push(await jest('main', [...extra, '--selectProjects', 'unit', 'integration', 'e2e']));
  runs.push(await jest('faults', [...extra, '--runInBand', '--passWithNoTests', '--selectProjects', 'faults']));
} finally {
  say('stopping the test stack');
  control.close();
  await stack.stop();
}
const failed = runs.some((run) => run.code !== 0);
if (failed) say(`kept ${dataDir} (logs in ${join(dataDir, 'logs')})`);
else rmSync(dataDir, { recursive: true, force: true });
const total = (key) => runs.reduce((sum, run) => sum + run[key], 0);
process.stdout.write(`tests: ${total('passed')} passed, ${total('failed')} failed, ${total('skipped')} skipped\n`);
process.exit(failed ? 1 : 0);

// `npm test` after lint, type-check and build: a fresh stack in a temporary directory on the
// test ports, then every jest project (unit, integration, end-to-end) against it.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stackPorts, startStack } from './stack.mjs';

const root = resolve(import.meta.dirname, '..');
const dataDir = mkdtempSync(join(tmpdir(), 'trilha-test-'));
const ports = stackPorts({ gateway: 28443, kafka: 29092, postgres: 25432, redis: 26379, ops: 28180 });
const say = (line) => process.stderr.write(`» ${line}\n`);

say(`starting the test stack in ${dataDir}`);
const stack = await startStack({ dataDir, ports, fast: true, logLevel: 'debug', log: (line) => say(line) });
const stackFile = join(dataDir, 'stack.json');
writeFileSync(stackFile, JSON.stringify({
  dataDir,
  baseUrl: stack.baseUrl,
  adminApiKey: stack.adminApiKey,
  caFile: stack.caFile,
  ports,
  infra: { databaseUrl: stack.infra.databaseUrl, kafkaBrokers: stack.infra.kafkaBrokers, redisUrl: stack.infra.redisUrl },
  env: stack.env,
}, null, 2));

let status = 1;
let summary = 'jest did not report';
try {
  const resultsFile = join(dataDir, 'jest-results.json');
  const jest = spawn(process.execPath, [join(root, 'node_modules/jest/bin/jest.js'), '--ci', '--json', `--outputFile=${resultsFile}`, ...process.argv.slice(3)], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, TRILHA_STACK_FILE: stackFile },
  });
  status = await new Promise((resolvePromise) => jest.on('exit', (code) => resolvePromise(code ?? 1)));
  if (existsSync(resultsFile)) {
    const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
    summary = `${results.numPassedTests} passed, ${results.numFailedTests} failed, ${results.numPendingTests} skipped`;
  }
} finally {
  say('stopping the test stack');
  await stack.stop();
  if (status === 0) rmSync(dataDir, { recursive: true, force: true });
  else say(`kept ${dataDir} (logs in ${join(dataDir, 'logs')})`);
}
process.stdout.write(`tests: ${summary}\n`);
process.exit(status);

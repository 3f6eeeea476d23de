// `npm start` and `npm test` on a fresh clone: install what is missing, build, then hand over
// to tools/start.mjs or tools/test.mjs. Every step prints one progress line.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { runOnSupportedNode } from './runtime.mjs';

await runOnSupportedNode();

const root = resolve(import.meta.dirname, '..');
const command = process.argv[2];
const say = (line) => process.stderr.write(`» ${line}\n`);
say(`Node.js ${process.version}`);

function run(label, cmd, args) {
  say(label);
  const started = Date.now();
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    say(`${label} failed`);
    process.exit(result.status ?? 1);
  }
  say(`${label} done (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

// `npm ci` installs the committed lockfile as it is and never writes it, so a fresh clone stays
// as it was checked out (`npm install` may rewrite the lockfile's metadata). A lockfile that
// package.json has outgrown is refused: `npm install` writes the one to commit.
const installed = resolve(root, 'node_modules/.package-lock.json');
if (!existsSync(installed) || statSync(installed).mtimeMs < statSync(resolve(root, 'package-lock.json')).mtimeMs) {
  run('installing npm dependencies (npm ci)', 'npm', ['ci', '--no-audit', '--no-fund']);
}

const npx = (bin) => resolve(root, 'node_modules/.bin', bin);

if (command === 'test') {
  // The module-boundary rule reads Nx's project graph; without one it silently checks nothing.
  process.env.NX_DAEMON = 'false';
  run('project graph (nx)', npx('nx'), ['show', 'projects']);
  run('lint (eslint, module boundaries)', npx('eslint'), ['.', '--max-warnings=0']);
}
run('build (tsc, path aliases, OpenAPI document, its typed client)', 'npm', ['run', '--silent', 'build']);
// After the build: the tests' typed client is generated from the document it writes, so a
// schema that drifts from what the tests send and read fails here.
if (command === 'test') run('type-check (tsc, everything including tests and the portal)', 'npm', ['run', '--silent', 'typecheck']);

if (command === 'start') await import('./start.mjs');
else if (command === 'test') await import('./test.mjs');
else {
  say(`usage: node tools/bootstrap.mjs start|test`);
  process.exit(2);
}

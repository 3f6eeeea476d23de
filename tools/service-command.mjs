// Runs a one-off command of a service against the local stack (`npm start` must be running),
// with the environment the stack gave that service:
//   npm run projections:rebuild -- api-gateway [projection…]
//   node tools/service-command.mjs migrate <service>
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { supportedNode } from './runtime.mjs';

const root = resolve(import.meta.dirname, '..');
const dataDir = resolve(root, process.env.TRILHA_DATA_DIR ?? '.trilha/local');
const [command, service, ...args] = process.argv.slice(2);
const envFile = join(dataDir, 'env', `${service}.json`);
if (!command || !service || !existsSync(envFile)) {
  process.stderr.write(`usage: node tools/service-command.mjs <command> <service> [args…]\n(no environment at ${envFile}: start the stack with npm start first)\n`);
  process.exit(2);
}
const env = { ...process.env, ...JSON.parse(readFileSync(envFile, 'utf8')) };
const result = spawnSync(supportedNode(), [join(root, 'dist/apps', service, 'src/main.js'), command, ...args], { stdio: 'inherit', env });
process.exit(result.status ?? 1);

// Schemathesis, the OpenAPI fuzzer `npm test` runs against the stack (apps/api-gateway/test/
// openapi.e2e.spec.ts): installed once from PyPI into a virtual environment in
// ${XDG_CACHE_HOME:-~/.cache}/trilha, beside Kafka's jars, never into the repository.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const SCHEMATHESIS_VERSION = '4.32.5';

/** Installs Schemathesis if it is not there yet; returns the path of its `st` command. */
export function ensureSchemathesis(log) {
  const dir = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'trilha', `schemathesis-${SCHEMATHESIS_VERSION}`);
  const st = join(dir, 'bin', 'st');
  if (existsSync(st)) return st;
  const started = Date.now();
  log(`schemathesis: installing ${SCHEMATHESIS_VERSION} from PyPI into ${dir} (first run only)`);
  const steps = [['python3', ['-m', 'venv', dir]], [join(dir, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', `schemathesis==${SCHEMATHESIS_VERSION}`]]];
  for (const [command, args] of steps) {
    const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
    if (result.status !== 0) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`installing Schemathesis failed: ${command} ${args.join(' ')} (${result.error?.message ?? `exit ${result.status}`}); it needs python3 with venv`);
    }
  }
  log(`schemathesis: installed (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return st;
}

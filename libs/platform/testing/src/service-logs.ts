import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type LogLine = Record<string, unknown>;

/** The JSON log lines a service of the stack has written so far. */
export function serviceLogs(dataDir: string, service: string): LogLine[] {
  const file = join(dataDir, 'logs', `${service}.log`);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

/** Polls until `predicate` holds, returning its value; fails with `what` after the timeout. */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000, everyMs = 50): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

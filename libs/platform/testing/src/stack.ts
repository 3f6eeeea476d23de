import { readFileSync } from 'node:fs';

/** The running test stack, as tools/test.mjs describes it in TRILHA_STACK_FILE. */
export interface TestStack {
  dataDir: string;
  baseUrl: string;
  adminApiKey: string;
  caFile: string;
  ports: { gateway: number; ops: Record<string, number> };
  infra: { databaseUrl: string; kafkaBrokers: string; redisUrl: string };
  env: Record<string, Record<string, string>>;
}

let cached: TestStack | undefined;

export function testStack(): TestStack {
  if (cached) return cached;
  const file = process.env.TRILHA_STACK_FILE;
  if (!file) throw new Error('TRILHA_STACK_FILE is not set: run integration and end-to-end tests through `npm test`.');
  cached = JSON.parse(readFileSync(file, 'utf8')) as TestStack;
  return cached;
}

// What every benchmark under bench/ shares: its options, its base ports, progress on stderr, and
// work run on a number of workers. The rest is beside it: machine.mjs (the machine and its CPU),
// latency.mjs (percentiles and report lines), bench-stack.mjs (the durable stack with its HTTPS
// client and stores), load-loops.mjs (open and closed load loops).
import { runOnSupportedNode } from '../../tools/runtime.mjs';

// A benchmark measures the platform on the runtime it ships with (tools/runtime.mjs).
await runOnSupportedNode();

export const say = (line) => process.stderr.write(`» ${line}\n`);
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const fmt = (ms) => (Number.isFinite(ms) ? `${ms.toFixed(1)} ms` : 'n/a');

/**
 * Each benchmark's base ports (shifted by TRILHA_PORT_OFFSET, see stackPorts in tools/stack.mjs),
 * all below Linux's ephemeral range (32768–60999), where an outgoing connection may hold any
 * port. The tracking and delivery benchmarks share theirs: run those one at a time.
 */
const TRACKING_AND_DELIVERY_PORTS = { gateway: 21343, kafka: 21392, postgres: 21332, redis: 21379, zipkin: 21311, ops: 21380 };
export const BASE_PORTS = {
  agente: { gateway: 20543, kafka: 20592, postgres: 20532, redis: 20579, zipkin: 20511, ops: 20580 },
  atendimento: { gateway: 20743, kafka: 20792, postgres: 20732, redis: 20779, zipkin: 20711, ops: 20780 },
  events: { gateway: 20943, kafka: 20992, postgres: 20932, redis: 20979, zipkin: 20911, ops: 20980 },
  startup: { gateway: 21143, kafka: 21192, postgres: 21132, redis: 21179, zipkin: 21111, ops: 21180 },
  portal: { gateway: 21943, kafka: 21992, postgres: 21932, redis: 21979, zipkin: 21911, ops: 21980 },
  recovery: { gateway: 21743, kafka: 21792, postgres: 21732, redis: 21779, zipkin: 21711, ops: 21780 },
  // bench/pipeline-ceiling.mjs starts only the infrastructure (Kafka, PostgreSQL, Redis).
  ceiling: { gateway: 21543, kafka: 21592, postgres: 21532, redis: 21579, zipkin: 21511, ops: 21580 },
  tracking: TRACKING_AND_DELIVERY_PORTS,
  delivery: TRACKING_AND_DELIVERY_PORTS,
};

/**
 * The command line's `--name=value` options over `defaults`, each parsed as its default's type
 * (a bare `--name` is true). An option without a default stops the benchmark, so a misspelt one
 * is not silently ignored.
 */
export function parseArgs(defaults) {
  const given = Object.fromEntries(process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, value ?? 'true'];
  }));
  const fail = (message) => {
    say(`${message}; options: ${Object.entries(defaults).map(([key, value]) => `--${key}=${value}`).join(' ')}`);
    process.exit(2);
  };
  for (const key of Object.keys(given)) if (!(key in defaults)) fail(`unknown option --${key}`);
  return Object.fromEntries(Object.entries(defaults).map(([key, value]) => {
    if (!(key in given)) return [key, value];
    if (typeof value === 'boolean') return [key, given[key] !== 'false'];
    if (typeof value !== 'number') return [key, given[key]];
    const number = Number(given[key]);
    if (!Number.isFinite(number)) fail(`--${key} takes a number`);
    return [key, number];
  }));
}

/** Runs `work(i)` for i in [0, count) on `concurrency` workers; resolves to the results in order. */
export async function inParallel(count, concurrency, work) {
  let next = 0;
  const results = new Array(count);
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < count) {
      const index = next++;
      results[index] = await work(index);
    }
  }));
  return results;
}

// Where a process's CPU went, by part of its work, from a V8 CPU profile (`node --cpu-prof`).
//
// Each sample goes to the part of the innermost frame on its stack whose script matches one of
// the parts' patterns (so a hook that wraps the rest of a request keeps only its own time), or
// to the runtime (Node.js's HTTP, TLS and sockets) when none does; garbage collection and V8's
// own work are parts of their own. Only samples within a window count: V8 stamps them with the
// monotonic clock `process.hrtime` reads, so a benchmark marks its phase with it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The API gateway's parts, in the order they are looked for on a stack. */
export const GATEWAY_PARTS = [
  ['compression', /@fastify\/compress/],
  ['logging', /observability\/src\/logging|pino/],
  ['authentication', /lojas\/feature\/src\/auth|lru-cache|@nestjs\/jwt|jsonwebtoken|jws/],
  ['rate limit', /http\/src\/rate-limit|ioredis|redis-parser/],
  ['forwarding', /gateway\/routing|undici/],
  ['tracing', /@opentelemetry|observability\/src\/(trace|tracing)/],
  ['metrics', /observability\/src\/request-metrics|prom-client/],
  ['request id, security headers', /http\/src\/(request-hooks|security|https)|observability\/src\/request-context/],
  ['NestJS (guards, pipes, routing)', /@nestjs|reflect-metadata|middie|rxjs/],
  ['Fastify (routing; the reply, its TLS write included)', /fastify|find-my-way|avvio/],
];

/** The profile a service wrote in `dir` (`TRILHA_SERVICE_NODE_ARGS="--cpu-prof --cpu-prof-dir=<dir>"`): the longest of those that ran its main.js. */
export function serviceProfile(dir, service) {
  const entry = `dist/apps/${service}/src/main.js`;
  const profiles = readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')))
    .filter((profile) => profile.nodes.some((node) => node.callFrame.url.endsWith(entry)));
  return profiles.sort((a, b) => b.endTime - b.startTime - (a.endTime - a.startTime))[0];
}

/**
 * The busy samples of `profile` between `fromUs` and `toUs` (process.hrtime in µs) by part:
 * [{ part, share }] largest first, and the busy share of the window.
 */
export function profileParts(profile, parts, { fromUs, toUs }) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const partOf = new Map();
  const classify = (id) => {
    if (partOf.has(id)) return partOf.get(id);
    const { functionName, url } = byId.get(id).callFrame;
    let part;
    if (functionName === '(garbage collector)') part = 'garbage collection';
    else if (functionName === '(program)') part = 'V8 (compiling, internals)';
    else part = parts.find(([, pattern]) => pattern.test(url))?.[0] ?? (parentOf.has(id) ? classify(parentOf.get(id)) : 'Node.js (HTTP, TLS, sockets)');
    partOf.set(id, part);
    return part;
  };
  const counts = new Map();
  let busy = 0;
  let idle = 0;
  let at = profile.startTime;
  for (const [index, id] of profile.samples.entries()) {
    at += profile.timeDeltas[index];
    if (at < fromUs || at > toUs) continue;
    if (byId.get(id).callFrame.functionName === '(idle)') {
      idle += 1;
      continue;
    }
    busy += 1;
    const part = classify(id);
    counts.set(part, (counts.get(part) ?? 0) + 1);
  }
  return {
    busyShare: busy / Math.max(1, busy + idle),
    parts: [...counts].map(([part, count]) => ({ part, share: count / Math.max(1, busy) })).sort((a, b) => b.share - a.share),
  };
}

/** Now, in µs of the clock V8's profiles use. */
export const profileClockUs = () => Number(process.hrtime.bigint() / 1000n);

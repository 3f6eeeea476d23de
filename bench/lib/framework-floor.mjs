// The framework floor of a read through the gateway (bench/tracking-read.mjs): the platform's
// two hops built from the same parts — NestJS on Fastify over HTTPS, undici's pool, NestJS on
// Fastify over plain HTTP answering one fixed body from memory — with none of the platform's
// work (no authentication, rate limit, tracing, logging hooks, validation or database). Between
// the bare server (the ceiling) and the platform, it shows what the design's parts cost by
// themselves and what the platform's own work per request adds.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { measureServer } from './bare-https.mjs';

const PROCESS_SCRIPT = fileURLToPath(new URL('./framework-floor-process.mjs', import.meta.url));

/**
 * Starts one role of framework-floor-process.mjs: resolves to { child, port }. Under
 * TRILHA_SERVICE_NODE_ARGS with --cpu-prof, as the services, its profile is
 * framework-floor-<role>.cpuprofile.
 */
function startRole(role, env) {
  const nodeArgs = process.env.TRILHA_SERVICE_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  if (nodeArgs.includes('--cpu-prof')) nodeArgs.push(`--cpu-prof-name=framework-floor-${role}.cpuprofile`);
  const child = spawn(process.execPath, [...nodeArgs, PROCESS_SCRIPT, role], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  return new Promise((resolvePort, reject) => {
    child.once('exit', (code) => reject(new Error(`framework floor (${role}) exited with ${code} before it listened`)));
    child.stdout.once('data', (chunk) => resolvePort({ child, port: Number(String(chunk).trim()) }));
  });
}

/** `measureServer` against the framework floor answering `body`, started for it and stopped at the end. */
export async function measureFrameworkFloor(stack, body, options) {
  const { TLS_CERT_FILE, TLS_KEY_FILE } = stack.env['api-gateway'];
  const roles = [];
  try {
    const service = await startRole('service', { BODY: body });
    roles.push(service);
    const gateway = await startRole('gateway', { UPSTREAM: `http://127.0.0.1:${service.port}`, CERT: TLS_CERT_FILE, KEY: TLS_KEY_FILE });
    roles.push(gateway);
    const processes = new Map([[gateway.child.pid, 'floor gateway'], [service.child.pid, 'floor service']]);
    return await measureServer(stack, { url: `https://localhost:${gateway.port}/v1/pedidoRastreio`, processes }, options);
  } finally {
    for (const { child } of roles) child.kill();
  }
}

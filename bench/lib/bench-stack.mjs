// A durable stack of a benchmark's own, with an HTTPS client through its gateway and its stores.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stackPorts, startStack } from '../../tools/stack.mjs';
import { inParallel, say } from './bench-kit.mjs';
import { describeMachine, machine } from './machine.mjs';

const require = createRequire(import.meta.url);
const { Agent, request } = require('undici');
const { Client } = require('pg');

/** An HTTPS client trusting the stack's certificate, with up to `connections` connections. */
export const httpsAgent = (caFile, connections) => new Agent({ connect: { ca: readFileSync(caFile) }, connections, pipelining: 1, keepAliveTimeout: 30_000 });

/**
 * A client address of its own for a request: the gateway believes X-Forwarded-For from loopback,
 * so the per-address limits (operator routes, /autenticacao) do not throttle the set-up.
 */
export const clientAddress = () => ({ 'x-forwarded-for': `10.${(Math.random() * 250) | 0}.${(Math.random() * 250) | 0}.${(Math.random() * 250) | 0}` });

/**
 * A durable stack of the benchmark's own (fast: false: PostgreSQL fsyncs, as in production) in a
 * temporary directory, on `basePorts` shifted by TRILHA_PORT_OFFSET. Returns:
 * - `facts`: the machine, taken before the stack started (so its load average is the machine's);
 * - `stack` (tools/stack.mjs), `api(method, path, { token, headers, body })` over HTTPS through
 *   the gateway, `createStores(count)` and `token(codigo)`;
 * - `run(measure, { afterStop })`: runs the benchmark, which resolves to whether its targets were
 *   met, then stops the stack, runs `afterStop(met)` if given (work that needs the machine to
 *   itself again; it resolves to whether the targets were met after all), and exits with 0 (met)
 *   or 1. The data directory, with the services' logs, is removed unless the benchmark threw, was
 *   interrupted, or `keep` was asked for.
 * `rateLimitPerMinute` lifts the gateway's default per-store limit for loads above it. The
 * services sample traces as the Helm chart does by default, a tenth of them, unless
 * OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG say otherwise.
 */
export async function benchStack(name, basePorts, { keep = false, logLevel = 'warn', rateLimitPerMinute } = {}) {
  const facts = machine();
  say(`machine: ${describeMachine(facts)}, load average ${facts.loadAverage}`);
  if (rateLimitPerMinute) process.env.RATE_LIMIT_DEFAULT_PER_MINUTE ??= String(rateLimitPerMinute);
  // Traces sampled as the Helm chart's default does (OTEL_TRACES_SAMPLER_ARG=1 traces every request, as `npm start`).
  process.env.OTEL_TRACES_SAMPLER ??= 'parentbased_traceidratio';
  process.env.OTEL_TRACES_SAMPLER_ARG ??= '0.1';
  const dataDir = mkdtempSync(join(tmpdir(), `trilha-bench-${name}-`));
  const ports = stackPorts(basePorts);
  say(`starting a durable stack in ${dataDir} (gateway :${ports.gateway}, kafka :${ports.kafka}, postgres :${ports.postgres})`);
  const stack = await startStack({ dataDir, ports, fast: false, logLevel, log: say });
  const dispatcher = httpsAgent(stack.caFile, 256);

  let stopping;
  const stop = (code, keepData, afterStop) => (stopping ??= (async () => {
    await dispatcher.close().catch(() => undefined);
    say('stopping the benchmark stack');
    await stack.stop().catch((error) => say(`stop failed: ${error.message}`));
    if (keepData) say(`kept ${dataDir} (logs in ${join(dataDir, 'logs')})`);
    else rmSync(dataDir, { recursive: true, force: true });
    if (afterStop) {
      code = await afterStop(code === 0).then(
        (pass) => (pass ? 0 : 1),
        (error) => {
          say(`benchmark failed after the stack stopped: ${error.stack ?? error.message}`);
          return 1;
        },
      );
    }
    process.exit(code);
  })());
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void stop(130, true));

  async function api(method, path, { headers = {}, body, token } = {}) {
    const response = await request(`${stack.baseUrl}${path}`, {
      method,
      dispatcher,
      headers: { ...headers, ...(token && { authorization: `Bearer ${token}` }), ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.body.text();
    return { status: response.statusCode, headers: response.headers, body: text && /json/.test(response.headers['content-type'] ?? '') ? JSON.parse(text) : text };
  }

  /** A store's API token, for its access code. */
  async function token(codigo) {
    const auth = await api('GET', `/autenticacao/${codigo}`, { headers: clientAddress() });
    if (auth.status !== 200) throw new Error(`GET /autenticacao: ${auth.status} ${JSON.stringify(auth.body)}`);
    return auth.body.token;
  }

  /** Creates `count` stores through the operator API: { idLoja, codigo, token } (no token when withTokens is false). */
  function createStores(count, { withTokens = true } = {}) {
    return inParallel(count, 16, async (n) => {
      const created = await api('POST', '/admin/lojas', { headers: { 'x-admin-key': stack.adminApiKey, ...clientAddress() }, body: { nome: `Bench ${n}` } });
      if (created.status !== 201) throw new Error(`POST /admin/lojas: ${created.status} ${JSON.stringify(created.body)}`);
      const { idLoja, codigo } = created.body;
      return { idLoja, codigo, ...(withTokens && { token: await token(codigo) }) };
    });
  }

  /**
   * Gathers the planner's statistics (ANALYZE) halfway through a warm-up of `warmupSeconds`. A
   * running deployment's tables have them (autovacuum); a fresh database has none until
   * autovacuum first comes by, up to a minute later, and a statement's plan cached while its
   * tables held a few rows (a sequential scan) would last the whole run.
   */
  function analyzeDuringWarmup(warmupSeconds) {
    setTimeout(async () => {
      const client = new Client({ connectionString: stack.infra.databaseUrl });
      try {
        await client.connect();
        await client.query('ANALYZE');
      } catch (error) {
        say(`ANALYZE failed: ${error.message}`);
      } finally {
        await client.end().catch(() => undefined);
      }
    }, warmupSeconds * 500).unref();
  }

  async function run(measure, { afterStop } = {}) {
    const [code, failed] = await measure().then(
      (pass) => [pass ? 0 : 1, false],
      (error) => {
        say(`benchmark failed: ${error.stack ?? error.message}`);
        return [1, true];
      },
    );
    await stop(code, failed || keep, failed ? undefined : afterStop);
  }

  return { facts, stack, api, token, createStores, analyzeDuringWarmup, run };
}

export { request };

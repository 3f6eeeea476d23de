import { createServer, type Server } from 'node:http';
import { collectDefaultMetrics, Gauge, register } from 'prom-client';
import { LISTENER_TIMEOUTS, listenerTimeoutOptions } from './listener-timeouts';

export type ReadinessCheck = () => Promise<void>;

export interface ReadinessChecks {
  /** Dependencies the service cannot serve without: one failing makes /readyz answer 503. */
  required: Record<string, ReadinessCheck>;
  /**
   * Dependencies the service serves without, degraded: one failing leaves /readyz at 200 with
   * status `degraded`, so Kubernetes keeps sending requests to a pod that can still take them.
   */
  optional?: Record<string, ReadinessCheck>;
}

/** What each check answered: `ok` or the reason it failed. */
type CheckResults = (readonly [string, string])[];

function runChecks(group: Record<string, ReadinessCheck>): Promise<CheckResults> {
  return Promise.all(
    Object.entries(group).map(async ([name, check]) => {
      try {
        await withTimeout(check(), 2000);
        return [name, 'ok'] as const;
      } catch (error) {
        return [name, (error as Error).message] as const;
      }
    }),
  );
}

/** The checks of the process's ops server, which `trilha_readiness_check` runs at every scrape. */
let scrapedChecks: ReadinessChecks = { required: {} };
new Gauge({
  name: 'trilha_readiness_check',
  help: 'Whether each check of /readyz passes (1) or not (0): database (required), kafka and consumer (optional)',
  labelNames: ['check'],
  async collect() {
    this.reset();
    const results = await runChecks({ ...scrapedChecks.required, ...scrapedChecks.optional });
    for (const [check, result] of results) this.set({ check }, result === 'ok' ? 1 : 0);
  },
});

/**
 * The internal operations port: `/healthz` (alive), `/readyz` (what every dependency answered,
 * within 2 s each: `ready`, `degraded` or `not ready`) and `/metrics` (Prometheus text, the same
 * checks included as `trilha_readiness_check`, so an alert sees what the probes see). Never
 * exposed on the public port. Its clients get LISTENER_TIMEOUTS like every other listener's.
 */
export async function startOpsServer(address: { port: number; host: string }, checks: ReadinessChecks): Promise<Server> {
  collectDefaultMetrics({ register });
  scrapedChecks = checks;
  const server = createServer(listenerTimeoutOptions, async (request, response) => {
    const send = (status: number, type: string, body: string) => {
      response.writeHead(status, { 'Content-Type': type });
      response.end(body);
    };
    if (request.url === '/healthz') return send(200, 'application/json', '{"status":"ok"}');
    if (request.url === '/metrics') return send(200, register.contentType, await register.metrics());
    if (request.url === '/readyz') {
      const [required, optional] = await Promise.all([runChecks(checks.required), runChecks(checks.optional ?? {})]);
      const passed = (results: CheckResults) => results.every(([, result]) => result === 'ok');
      const status = !passed(required) ? 'not ready' : passed(optional) ? 'ready' : 'degraded';
      return send(status === 'not ready' ? 503 : 200, 'application/json', JSON.stringify({ status, checks: Object.fromEntries([...required, ...optional]) }));
    }
    send(404, 'application/json', '{"status":"not found"}');
  });
  server.setTimeout(LISTENER_TIMEOUTS.idle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host, resolve);
  });
  return server;
}

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => { clearTimeout(timer); resolve(value); },
      (error) => { clearTimeout(timer); reject(error); },
    );
  });
}

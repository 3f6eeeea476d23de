import { createServer, type Server } from 'node:http';
import { collectDefaultMetrics, register } from 'prom-client';

export type ReadinessCheck = () => Promise<void>;

/**
 * The internal operations port: `/healthz` (alive), `/readyz` (every dependency answers)
 * and `/metrics` (Prometheus text). Never exposed on the public port.
 */
export async function startOpsServer(port: number, checks: Record<string, ReadinessCheck>): Promise<Server> {
  collectDefaultMetrics({ register });
  const server = createServer(async (request, response) => {
    const send = (status: number, type: string, body: string) => {
      response.writeHead(status, { 'Content-Type': type });
      response.end(body);
    };
    if (request.url === '/healthz') return send(200, 'application/json', '{"status":"ok"}');
    if (request.url === '/metrics') return send(200, register.contentType, await register.metrics());
    if (request.url === '/readyz') {
      const results = await Promise.all(
        Object.entries(checks).map(async ([name, check]) => {
          try {
            await withTimeout(check(), 2000);
            return [name, 'ok'] as const;
          } catch (error) {
            return [name, (error as Error).message] as const;
          }
        }),
      );
      const ready = results.every(([, result]) => result === 'ok');
      return send(ready ? 200 : 503, 'application/json', JSON.stringify({ status: ready ? 'ready' : 'not ready', checks: Object.fromEntries(results) }));
    }
    send(404, 'application/json', '{"status":"not found"}');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, resolve);
  });
  return server;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => { clearTimeout(timer); resolve(value); },
      (error) => { clearTimeout(timer); reject(error); },
    );
  });
}

import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { Histogram } from 'prom-client';
import { serverRoute } from './trace-context';

/**
 * Buckets of the API's request durations. 0.25 s is the latency SLO's threshold
 * (docs/RUNBOOKS.md, "Service level objectives"): its burn-rate alerts read that bucket.
 */
export const API_REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const apiRequests = new Histogram({
  name: 'trilha_api_request_duration_seconds',
  help: 'Requests to the public API, from their first byte to the end of the answer, by route template, method and status class (aborted: the client left first)',
  labelNames: ['route', 'method', 'status_class'],
  buckets: API_REQUEST_BUCKETS,
});

/** The status class of an answer (`2xx` … `5xx`), or `aborted` when the client closed the connection before it ended. */
export function statusClass(statusCode: number, finished: boolean): string {
  return finished ? `${Math.floor(statusCode / 100)}xx` : 'aborted';
}

/**
 * Fastify `onRequest` hook of the public API: times every request into
 * `trilha_api_request_duration_seconds`, the measure of the API's availability and latency SLOs.
 * Its labels stay few: the route template (`/v1/pedidos/{idPedido}`, `unmatched` when no route
 * took the request), never the URL, and no store.
 */
export function requestMetricsHook(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const end = apiRequests.startTimer();
  const response = reply.raw;
  response.once('close', () => {
    end({ route: serverRoute(request) ?? 'unmatched', method: request.method, status_class: statusClass(response.statusCode, response.writableFinished) });
  });
  done();
}

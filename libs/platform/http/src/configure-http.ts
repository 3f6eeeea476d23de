import type { RouteInfo } from '@nestjs/common/interfaces';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LISTENER_TIMEOUTS, listenerTimeoutOptions, requestLogHook, requestMetricsHook, secretRouteHook, traceRequestHook } from '@trilha/observability';
import { acceptJsonBodies, MAX_BODY_BYTES } from './json-body';
import { ProblemDetailsFilter } from './problem.filter';
import { problem, sendProblem } from './problem';
import { httpsOnlyHook, requestIdHook, securityHeadersHook, unreadableUrlHeaders } from './request-hooks';
import { strictValidationPipe } from './validation';

export const API_PREFIX = 'v1';

/**
 * What a TLS listener speaks: TLS 1.2 with forward-secret key exchange (ECDHE) and authenticated
 * encryption (AES-GCM, ChaCha20-Poly1305) only, and TLS 1.3 with its own three suites.
 */
export const TLS_PROTOCOL = {
  minVersion: 'TLSv1.2',
  ciphers: [
    'TLS_AES_256_GCM_SHA384',
    'TLS_CHACHA20_POLY1305_SHA256',
    'TLS_AES_128_GCM_SHA256',
    'ECDHE-ECDSA-AES128-GCM-SHA256',
    'ECDHE-RSA-AES128-GCM-SHA256',
    'ECDHE-ECDSA-AES256-GCM-SHA384',
    'ECDHE-RSA-AES256-GCM-SHA384',
    'ECDHE-ECDSA-CHACHA20-POLY1305',
    'ECDHE-RSA-CHACHA20-POLY1305',
  ].join(':'),
  honorCipherOrder: true,
} as const;

/**
 * The HTTP server every Trilha service runs Nest on: Fastify, whose router and request
 * pipeline cost a fraction of Express's (on a bare micro-benchmark, over three times the
 * requests a second), with LISTENER_TIMEOUTS. `https` for a TLS listener (TLS_PROTOCOL);
 * `trustProxy` names the proxies whose `X-Forwarded-*` headers are believed (addresses, CIDRs or
 * `loopback`; none when empty).
 */
export function httpAdapter(options: { https?: { cert: Buffer; key: Buffer }; trustProxy?: string[] } = {}): FastifyAdapter {
  return new FastifyAdapter({
    // Node's server options: Fastify hands `https` to https.createServer, `http` to http.createServer.
    ...(options.https ? { https: { ...options.https, ...TLS_PROTOCOL, ...listenerTimeoutOptions } } : { http: listenerTimeoutOptions }),
    requestTimeout: LISTENER_TIMEOUTS.request,
    keepAliveTimeout: LISTENER_TIMEOUTS.keepAlive,
    connectionTimeout: LISTENER_TIMEOUTS.idle,
    trustProxy: options.trustProxy?.length ? options.trustProxy : false,
    bodyLimit: MAX_BODY_BYTES,
    // Path parameters are checked by each route (a 400 naming the field), not cut at 100 characters.
    routerOptions: { maxParamLength: 2048 },
    // A URL the router cannot decode (a bad %-escape) is answered before any hook runs: a
    // problem like every other refusal, with the headers the hooks would have set.
    frameworkErrors: (_error: Error, request: FastifyRequest, reply: FastifyReply) => {
      unreadableUrlHeaders(reply);
      sendProblem(reply, problem(400, 'O endereço pedido não pode ser lido: um escape % não forma um caractere.', request.url));
    },
  });
}

/**
 * The HTTP conventions every Trilha HTTP server shares (docs/API.md section 0): a span per
 * request continuing the caller's `traceparent`, request ids, a log line per request (both
 * without the values of the routes' secret parameters),
 * JSON bodies up to 1 MiB, strict validation, RFC 9457 problems, the /v1 prefix. The public
 * gateway adds HTTPS only, its security headers and the API's request metrics (the measure of
 * its SLOs); services' internal ports are reached through the gateway.
 * Create the app with `bodyParser: false`: the parser here turns its errors into problems.
 */
export function configureHttp(app: NestFastifyApplication, options: { httpsOnly: boolean; prefixExclude?: (string | RouteInfo)[] }): void {
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRoute', secretRouteHook);
  fastify.addHook('onRequest', traceRequestHook);
  fastify.addHook('onRequest', requestIdHook);
  fastify.addHook('onRequest', requestLogHook);
  if (options.httpsOnly) fastify.addHook('onRequest', requestMetricsHook).addHook('onRequest', securityHeadersHook).addHook('onRequest', httpsOnlyHook);
  acceptJsonBodies(fastify);
  app.setGlobalPrefix(API_PREFIX, { exclude: options.prefixExclude ?? [] });
  app.useGlobalPipes(strictValidationPipe());
  app.useGlobalFilters(new ProblemDetailsFilter());
}

import type { RouteInfo } from '@nestjs/common/interfaces';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestLogHook, traceRequestHook } from '@trilha/observability';
import { acceptJsonBodies, MAX_BODY_BYTES } from './json-body';
import { ProblemDetailsFilter } from './problem.filter';
import { problem, sendProblem } from './problem';
import { httpsOnlyHook, requestIdHook, securityHeadersHook, unreadableUrlHeaders } from './request-hooks';
import { strictValidationPipe } from './validation';

export const API_PREFIX = 'v1';
/** Every interface, IPv6 and IPv4 (dual stack), as a Node server without a host (Fastify's own default is localhost only). */
export const ALL_INTERFACES = '::';

/**
 * The HTTP server every Trilha service runs Nest on: Fastify, whose router and request
 * pipeline cost a fraction of Express's (on a bare micro-benchmark, over three times the
 * requests a second). `https` for a TLS listener; `trustProxy` names the proxies whose
 * `X-Forwarded-*` headers are believed (addresses, CIDRs or `loopback`; none when empty).
 */
export function httpAdapter(options: { https?: { cert: Buffer; key: Buffer }; trustProxy?: string[] } = {}): FastifyAdapter {
  return new FastifyAdapter({
    ...(options.https && { https: options.https }),
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
 * request continuing the caller's `traceparent`, request ids, a log line per request,
 * JSON bodies up to 1 MiB, strict validation, RFC 9457 problems, the /v1 prefix. The public
 * gateway adds HTTPS only and its security headers; services' internal ports are reached
 * through the gateway.
 * Create the app with `bodyParser: false`: the parser here turns its errors into problems.
 */
export function configureHttp(app: NestFastifyApplication, options: { httpsOnly: boolean; prefixExclude?: (string | RouteInfo)[] }): void {
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', traceRequestHook);
  fastify.addHook('onRequest', requestIdHook);
  fastify.addHook('onRequest', requestLogHook);
  if (options.httpsOnly) fastify.addHook('onRequest', securityHeadersHook).addHook('onRequest', httpsOnlyHook);
  acceptJsonBodies(fastify);
  app.setGlobalPrefix(API_PREFIX, { exclude: options.prefixExclude ?? [] });
  app.useGlobalPipes(strictValidationPipe());
  app.useGlobalFilters(new ProblemDetailsFilter());
}

import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { novoId } from '@trilha/ids';
import { requestContext } from '@trilha/observability';
import { header } from './header';
import { problem, sendProblem } from './problem';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives every request its correlation id: the caller's `X-Request-Id` when it is sane, a new
 * UUIDv7 (@trilha/ids) otherwise. It is echoed on the response and carried by every log line
 * and event.
 */
export function requestIdHook(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const given = header(request, 'x-request-id');
  const correlationId = given && REQUEST_ID.test(given) ? given : novoId();
  reply.header('X-Request-Id', correlationId);
  requestContext.run({ correlationId, causationId: correlationId }, done);
}

/**
 * HTTPS only. On a TLS listener every request is secure. Behind an ingress that terminates
 * TLS, the trusted proxies (`trustProxy`) decide whether `X-Forwarded-Proto: https` is
 * believed; anything else gets 403.
 */
export function httpsOnlyHook(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  if (request.protocol === 'https') return done();
  sendProblem(reply, problem(403, 'Use HTTPS.', request.originalUrl));
}

/**
 * Headers every public answer carries: browsers keep to HTTPS for the host for a year
 * (`Strict-Transport-Security`), and never guess a content type other than the one sent.
 */
export function securityHeadersHook(_request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  securityHeaders(reply);
  done();
}

function securityHeaders(reply: FastifyReply): void {
  reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  reply.header('X-Content-Type-Options', 'nosniff');
}

/** The headers of an answer given before the hooks run (a URL the router cannot read): a new request id and the security headers. */
export function unreadableUrlHeaders(reply: FastifyReply): void {
  reply.header('X-Request-Id', novoId());
  securityHeaders(reply);
}

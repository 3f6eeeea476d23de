import type { NextFunction, Request, Response } from 'express';
import type { TLSSocket } from 'node:tls';
import { problem, sendProblem } from './problem';

/**
 * HTTPS only. On a TLS listener every request is secure. Behind an ingress that terminates
 * TLS, Express's `trust proxy` (the trusted proxies) decides whether `X-Forwarded-Proto: https`
 * is believed; anything else gets 403.
 */
export function httpsOnlyMiddleware(request: Request, response: Response, next: NextFunction): void {
  // Our own TLS first: asking `secure` parses the peer's address against the trusted proxies.
  if ((request.socket as TLSSocket).encrypted || request.secure) return next();
  sendProblem(response, problem(403, 'Use HTTPS.', request.originalUrl));
}

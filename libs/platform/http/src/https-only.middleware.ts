import type { NextFunction, Request, Response } from 'express';
import { problem, sendProblem } from './problem';

/**
 * HTTPS only. On a TLS listener every request is secure. Behind an ingress that terminates
 * TLS, Express's `trust proxy` (the trusted proxies) decides whether `X-Forwarded-Proto: https`
 * is believed; anything else gets 403.
 */
export function httpsOnlyMiddleware(request: Request, response: Response, next: NextFunction): void {
  if (request.secure) return next();
  sendProblem(response, problem(403, 'Use HTTPS.', request.originalUrl));
}

import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { requestContext } from '@trilha/observability';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives every request its correlation id: the caller's `X-Request-Id` when it is sane, a new
 * UUID otherwise. It is echoed on the response and carried by every log line and event.
 */
export function requestIdMiddleware(request: Request, response: Response, next: NextFunction): void {
  const given = request.header('x-request-id');
  const correlationId = given && REQUEST_ID.test(given) ? given : randomUUID();
  response.setHeader('X-Request-Id', correlationId);
  requestContext.run({ correlationId, causationId: correlationId }, next);
}

import type { RouteInfo } from '@nestjs/common/interfaces';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { requestLogMiddleware, traceRequestMiddleware } from '@trilha/observability';
import { bodyParserErrorHandler, jsonBodyParser } from './body-parser';
import { httpsOnlyMiddleware } from './https-only.middleware';
import { ProblemDetailsFilter } from './problem.filter';
import { requestIdMiddleware } from './request-id.middleware';
import { strictValidationPipe } from './validation';

export const API_PREFIX = 'v1';

/**
 * The HTTP conventions every Trilha HTTP server shares (CONTRACT.md section 0): a span per
 * request continuing the caller's `traceparent`, request ids, a log line per request,
 * JSON bodies up to 1 MiB, strict validation, RFC 9457 problems, the /v1 prefix. The public
 * gateway adds HTTPS only; services' internal ports are reached through the gateway.
 * Create the app with `bodyParser: false`: the parser here turns its errors into problems.
 */
export function configureHttp(app: NestExpressApplication, options: { httpsOnly: boolean; prefixExclude?: (string | RouteInfo)[] }): void {
  app.disable('x-powered-by');
  // No ETag: nothing answers a conditional request (the gateway does not forward
  // If-None-Match), and hashing every body cost ≈ 1 % of a read.
  app.set('etag', false);
  app.use(traceRequestMiddleware, requestIdMiddleware, requestLogMiddleware);
  if (options.httpsOnly) app.use(httpsOnlyMiddleware);
  app.use(jsonBodyParser, bodyParserErrorHandler);
  app.setGlobalPrefix(API_PREFIX, { exclude: options.prefixExclude ?? [] });
  app.useGlobalPipes(strictValidationPipe());
  app.useGlobalFilters(new ProblemDetailsFilter());
}

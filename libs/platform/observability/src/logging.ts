import { LoggerModule } from 'nestjs-pino';
import { RequestMethod, type DynamicModule } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { requestContext } from './request-context';
import { currentTraceIds } from './trace-context';

/** Fields on every log line: the request or message being handled and its trace. */
export function logContextFields(): Record<string, unknown> {
  const context = requestContext.get();
  return {
    ...(context && { correlationId: context.correlationId }),
    ...(context?.idLoja !== undefined && { idLoja: context.idLoja }),
    ...currentTraceIds(),
  };
}

/**
 * The public tracking page's token (`/rastreio/<token>`) lets anyone see the order: it is a
 * credential, so request logs show the path without it.
 */
export function loggedUrl(url: string): string {
  return url.replace(/^\/rastreio\/[^/?#]+/, '/rastreio/…');
}

/**
 * JSON logs through pino. The request log line and every line written while handling a
 * request or a Kafka message carry correlationId, idLoja and traceId.
 */
export function loggingModule(service: string, level: string): DynamicModule {
  return LoggerModule.forRoot({
    forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
    pinoHttp: {
      level,
      base: { service },
      messageKey: 'msg',
      timestamp: () => `,"time":"${new Date().toISOString()}"`,
      formatters: { level: (label) => ({ level: label }) },
      mixin: logContextFields,
      genReqId: (_request: IncomingMessage) => requestContext.get()?.correlationId ?? 'unknown',
      autoLogging: { ignore: (request) => request.url === '/healthz' },
      serializers: {
        req: (request: { id: string; method: string; url: string }) => ({ id: request.id, method: request.method, url: loggedUrl(request.url) }),
        res: (response: { statusCode: number }) => ({ statusCode: response.statusCode }),
      },
      redact: ['req.headers.authorization', 'req.headers["x-admin-key"]'],
    },
  });
}

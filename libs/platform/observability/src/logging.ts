import { LoggerModule } from 'nestjs-pino';
import { RequestMethod, type DynamicModule } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { requestContext } from './request-context';
import { loggedUrl } from './logged-url';
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
      // The serializers take Node's own request and response: pino's wrappers would first copy
      // every header of every request into an object that these then drop.
      wrapSerializers: false,
      serializers: {
        req: (request: IncomingMessage & { id: string; originalUrl?: string }) =>
          ({ id: request.id, method: request.method, url: loggedUrl(request.originalUrl ?? request.url ?? '') }),
        res: (response: { statusCode: number }) => ({ statusCode: response.statusCode }),
      },
    },
  });
}

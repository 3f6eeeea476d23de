import { LoggerModule, PinoLogger } from 'nestjs-pino';
import type { DynamicModule } from '@nestjs/common';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { requestContext } from './request-context';
import { loggedUrl } from './logged-url';
import { currentTraceIds } from './trace-context';

/** Fields on every log line: the request or message being handled and its trace. */
export function logContextFields(context = requestContext.get(), traceIds = currentTraceIds()): Record<string, unknown> {
  return {
    ...(context && { correlationId: context.correlationId }),
    ...(context?.idLoja !== undefined && { idLoja: context.idLoja }),
    ...traceIds,
  };
}

/**
 * JSON logs through pino, for Nest's logger (nestjs-pino). Every line written while handling
 * a request or a Kafka message carries correlationId, idLoja and traceId (the mixin reads the
 * request context); the request log line is `requestLogHook`'s.
 */
export function loggingModule(service: string, level: string): DynamicModule {
  return LoggerModule.forRoot({
    // No per-request pino-http middleware: its two child loggers and async-local store per
    // request cost a twentieth of a read's CPU, and the mixin already gives every line its context.
    forRoutes: [],
    pinoHttp: {
      level,
      base: { service },
      messageKey: 'msg',
      timestamp: () => `,"time":"${new Date().toISOString()}"`,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => logContextFields(),
      // The request line's `req` and `res` are already what is logged: pino-http's serializers,
      // made for Node's own objects, would log every status as null.
      wrapSerializers: false,
    },
  });
}

/**
 * Fastify `onRequest` hook, after the request context is open: one line per request when its
 * response is done (`request completed`; a 5xx at level error; `request aborted` when the
 * client left first), with the request's context fields taken now, when they are sure to be
 * there, and its store as authentication later set it.
 */
export function requestLogHook(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const context = requestContext.get();
  const traceIds = currentTraceIds();
  const startedAt = Date.now();
  const response = reply.raw;
  response.once('close', () => {
    const level = !response.writableFinished ? 'warn' : response.statusCode >= 500 ? 'error' : 'info';
    const logger = PinoLogger.root;
    if (!logger.isLevelEnabled(level)) return;
    logger[level](
      {
        ...logContextFields(context, traceIds),
        req: { id: context?.correlationId, method: request.method, url: loggedUrl(request.originalUrl) },
        res: { statusCode: response.statusCode },
        responseTime: Date.now() - startedAt,
      },
      response.writableFinished ? 'request completed' : 'request aborted',
    );
  });
  done();
}

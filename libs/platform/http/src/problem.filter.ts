import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ConcurrencyLimitExceeded } from './concurrency-limit';
import { BODY_REFUSALS } from './json-body';
import { problem, sendProblem, type ProblemDocument } from './problem';
import { InvalidInputException } from './validation';

/**
 * Errors that mean the database cannot be reached now (a restart, a failover), by Node's and
 * PostgreSQL's codes (class 08, connection exception; 57P01–57P03, shutting down or starting).
 * The request may succeed if repeated, so they are a 503, not a 500.
 */
const UNAVAILABLE = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|08\d{3}|57P0[1-3])$/;
const UNAVAILABLE_MESSAGE = /Connection terminated|timeout exceeded when trying to connect/;

function isUnavailable(exception: unknown): boolean {
  for (let error = exception as { code?: unknown; message?: unknown; driverError?: unknown } | undefined; error; error = error.driverError as typeof error) {
    if ((typeof error.code === 'string' && UNAVAILABLE.test(error.code)) || (typeof error.message === 'string' && UNAVAILABLE_MESSAGE.test(error.message))) return true;
  }
  return false;
}

/**
 * Turns every error of a route into an RFC 9457 problem document. Internals never leak:
 * anything that is not an HttpException becomes a generic 500 (a 503 when the database cannot be
 * reached) and is logged with its stack.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger(ProblemDetailsFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const document = this.toProblem(exception, request.originalUrl);
    if (document.status >= 500) this.logger.error({ msg: 'unhandled error', err: exception });
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    if (exception instanceof ConcurrencyLimitExceeded) reply.header('retry-after', String(exception.retryAfterSeconds));
    sendProblem(reply, document);
  }

  private toProblem(exception: unknown, instance: string): ProblemDocument {
    if (exception instanceof InvalidInputException) return problem(400, exception.message, instance, exception.erros);
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      // A body Fastify refused before any route (too large, not JSON) comes with its English message.
      if (BODY_REFUSALS[status]) return problem(status, BODY_REFUSALS[status], instance);
      // A path no route has: Nest's own message is English ("Cannot GET /x").
      const unrouted = /^Cannot ([A-Z]+) (.*)$/.exec(exception.message);
      if (status === 404 && unrouted) return problem(404, `Rota não encontrada: ${unrouted[1]} ${unrouted[2]}.`, instance);
      const body = exception.getResponse();
      const detail = typeof body === 'string' ? body : (body as { message?: unknown }).message;
      return problem(status, typeof detail === 'string' ? detail : exception.message, instance);
    }
    if (isUnavailable(exception)) return problem(503, 'Serviço temporariamente indisponível: tente de novo em instantes.', instance);
    return problem(500, 'Erro interno. Informe o X-Request-Id ao suporte.', instance);
  }
}

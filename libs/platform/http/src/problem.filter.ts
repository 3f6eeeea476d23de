import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BODY_REFUSALS } from './json-body';
import { problem, sendProblem, type ProblemDocument } from './problem';
import { InvalidInputException } from './validation';

/**
 * Turns every error of a route into an RFC 9457 problem document. Internals never leak:
 * anything that is not an HttpException becomes a generic 500 and is logged with its stack.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger(ProblemDetailsFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const document = this.toProblem(exception, request.originalUrl);
    if (document.status >= 500) this.logger.error({ msg: 'unhandled error', err: exception });
    sendProblem(host.switchToHttp().getResponse<FastifyReply>(), document);
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
    return problem(500, 'Erro interno. Informe o X-Request-Id ao suporte.', instance);
  }
}

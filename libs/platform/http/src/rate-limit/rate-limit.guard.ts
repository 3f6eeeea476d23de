import { Injectable, type ExecutionContext } from '@nestjs/common';
import { ThrottlerException, ThrottlerGuard, type ThrottlerLimitDetail } from '@nestjs/throttler';
import type { ThrottlerRequest } from '@nestjs/throttler/dist/throttler.guard.interface';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A request forwarded by the gateway names its route here, for its own counter and limit. */
export interface LimitedRequest {
  limitedRoute?: { id: string; limitPerMinute?: number };
}

/**
 * Per store (or, before authentication, per client address), per endpoint, per calendar
 * minute. Every limited response carries RateLimit-Limit, -Remaining and -Reset; a 429 carries
 * Retry-After, the whole seconds to the next minute.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override headerPrefix = 'RateLimit';

  /** Kafka message handlers share the app's global guards; limits concern HTTP only. */
  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    return context.getType() !== 'http';
  }

  /**
   * A forwarded request carries the route it matched: its counter is that route's, and its
   * limit the route's own when it has one (docs/API.md: per endpoint).
   */
  protected override async handleRequest(props: ThrottlerRequest): Promise<boolean> {
    const route = props.context.switchToHttp().getRequest<LimitedRequest>().limitedRoute;
    if (!route) return super.handleRequest(props);
    return super.handleRequest({
      ...props,
      limit: route.limitPerMinute ?? props.limit,
      generateKey: (_context, tracker, name) => `${route.id}:${tracker}:${name}`,
    });
  }

  protected override async getTracker(request: Record<string, unknown>): Promise<string> {
    const loja = (request as { loja?: { idLoja: number } }).loja;
    return loja ? `loja:${loja.idLoja}` : `ip:${(request as unknown as FastifyRequest).ip}`;
  }

  /** The throttler sets only Retry-After on a refusal; the contract wants the RateLimit headers too. */
  protected override async throwThrottlingException(context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    context
      .switchToHttp()
      .getResponse<FastifyReply>()
      .header(`${this.headerPrefix}-Limit`, detail.limit)
      .header(`${this.headerPrefix}-Remaining`, 0)
      .header(`${this.headerPrefix}-Reset`, detail.timeToExpire);
    throw new ThrottlerException(`Limite de ${detail.limit} requisições por minuto excedido; tente de novo em ${detail.timeToBlockExpire} s.`);
  }
}

import { Injectable, type ExecutionContext } from '@nestjs/common';
import { ThrottlerException, ThrottlerGuard, type ThrottlerLimitDetail } from '@nestjs/throttler';
import type { Request } from 'express';

/**
 * Per store (or, before authentication, per client address), per endpoint, per calendar
 * minute. Every limited response carries RateLimit-Limit, -Remaining and -Reset; a 429 carries
 * Retry-After, the whole seconds to the next minute.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override headerPrefix = 'RateLimit';

  protected override async getTracker(request: Record<string, unknown>): Promise<string> {
    const loja = (request as { loja?: { idLoja: number } }).loja;
    return loja ? `loja:${loja.idLoja}` : `ip:${(request as unknown as Request).ip}`;
  }

  protected override async throwThrottlingException(_context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    throw new ThrottlerException(`Limite de ${detail.limit} requisições por minuto excedido; tente de novo em ${detail.timeToBlockExpire} s.`);
  }
}

import { Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { requestContext } from '@trilha/observability';
import { header } from '../header';
import { SEM_LOJA } from './decorators';
import { INTERNAL_HEADERS, ORIGENS } from './internal-headers';

/**
 * Guards a service's internal port: only the gateway, holding the internal token, may call
 * it, and it names the authenticated store in `x-trilha-loja`. The token is compared in
 * constant time once the lengths match: its length is no secret, its strength is in its
 * characters (at least 32, random), and every internal request pays for the check, so no digest
 * is made of it.
 */
@Injectable()
export class InternalCallerGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(
    private readonly reflector: Reflector,
    internalToken: string,
  ) {
    this.expected = Buffer.from(internalToken);
  }

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest & { idLoja?: number; origem?: string }>();
    const token = Buffer.from(header(request, INTERNAL_HEADERS.token) ?? '');
    if (token.length !== this.expected.length || !timingSafeEqual(token, this.expected)) throw new UnauthorizedException('Chamada interna sem credencial.');
    const origem = header(request, INTERNAL_HEADERS.origem) ?? 'api';
    request.origem = (ORIGENS as readonly string[]).includes(origem) ? origem : 'api';
    if (this.reflector.getAllAndOverride<boolean>(SEM_LOJA, [context.getHandler(), context.getClass()])) return true;
    const idLoja = Number(header(request, INTERNAL_HEADERS.loja));
    if (!Number.isInteger(idLoja) || idLoja < 1) throw new UnauthorizedException('Chamada interna sem loja.');
    request.idLoja = idLoja;
    requestContext.setLoja(idLoja);
    return true;
  }
}

import { Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { hash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { requestContext } from '@trilha/observability';
import { header } from '../header';
import { SEM_LOJA } from './decorators';
import { INTERNAL_HEADERS, ORIGENS } from './internal-headers';

const digest = (value: string) => hash('sha256', value, 'buffer');

/**
 * Guards a service's internal port: only the gateway, holding the internal token, may call
 * it, and it names the authenticated store in `x-trilha-loja`.
 */
@Injectable()
export class InternalCallerGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(
    private readonly reflector: Reflector,
    internalToken: string,
  ) {
    this.expected = digest(internalToken);
  }

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest & { idLoja?: number; origem?: string }>();
    const token = header(request, INTERNAL_HEADERS.token) ?? '';
    if (!timingSafeEqual(digest(token), this.expected)) throw new UnauthorizedException('Chamada interna sem credencial.');
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

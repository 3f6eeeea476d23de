import { Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { requestContext } from '@trilha/observability';
import { tokenAceito } from '@trilha/lojas-domain';
import { LojaStatusCache } from './loja-status.cache';
import { header, ROUTE_ACCESS, type AuthenticatedRequest } from '@trilha/http';
import { TokenService } from './token.service';

/** The scheme's name is case-insensitive (RFC 9110, 11.1). */
const BEARER = /^Bearer +([A-Za-z0-9._~+/=-]+)$/i;

/**
 * Every route needs `Authorization: Bearer <token>` unless marked @SemToken(). A missing,
 * malformed, expired, forged or revoked token, or one of an inactive store, is a 401.
 */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: TokenService,
    private readonly lojas: LojaStatusCache,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    // Kafka message handlers share the app's global guards; tokens concern HTTP only.
    if (context.getType() !== 'http') return true;
    const access = this.reflector.getAllAndOverride<string>(ROUTE_ACCESS, [context.getHandler(), context.getClass()]);
    if (access === 'sem-token') return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const match = BEARER.exec(header(request, 'authorization') ?? '');
    const claims = match ? await this.tokens.verificar(match[1]) : undefined;
    if (!claims || !tokenAceito(await this.lojas.get(claims.idLoja), claims.emitidoEmMs)) {
      context.switchToHttp().getResponse<FastifyReply>().header('WWW-Authenticate', 'Bearer');
      throw new UnauthorizedException(match ? 'Token inválido, expirado ou revogado.' : 'Envie Authorization: Bearer <token>.');
    }
    request.loja = { idLoja: claims.idLoja };
    requestContext.setLoja(claims.idLoja);
    return true;
  }
}

import { ForbiddenException, Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { parse as parseCookies } from 'cookie';
import type { FastifyReply } from 'fastify';
import { requestContext } from '@trilha/observability';
import { metodoDeLeitura, sessaoPortalPermite, tokenAceito } from '@trilha/lojas-domain';
import { LojaStatusCache } from './loja-status.cache';
import { header, PORTAL_COOKIE, PORTAL_SESSION, ROUTE_ACCESS, type AuthenticatedRequest, type PortalSessionAccess } from '@trilha/http';
import { SessoesPortalService, type SessaoPortal } from './sessoes-portal.service';
import { TokenService } from './token.service';

/** The scheme's name is case-insensitive (RFC 9110, 11.1). */
const BEARER = /^Bearer +([A-Za-z0-9._~+/=-]+)$/i;

export const SESSAO_PORTAL_AUSENTE = 'Abra o portal por um link pedido pelo sistema da loja (POST /v1/portal/links): esta rota pede a sessão do portal.';
export const SESSAO_PORTAL_INVALIDA = 'Sessão do portal inválida, encerrada ou revogada; peça um novo link ao sistema da loja.';
export const SESSAO_PORTAL_EXPIRADA = 'A sessão do portal expirou; peça um novo link ao sistema da loja.';
export const SESSAO_PORTAL_SO_CONSULTA = 'Esta sessão do portal só permite consultar; peça um link com capacidade gerenciar.';
export const ORIGEM_RECUSADA =
  'Uma alteração com a sessão do portal precisa do cabeçalho Origin deste mesmo endereço (proteção contra CSRF); envie-a pela página do portal.';

/** A request the portal's session authenticated carries it here. */
export type PortalRequest = AuthenticatedRequest & { sessaoPortal?: SessaoPortal };

/**
 * Authenticates the store of every request, except on routes marked @SemToken(): by
 * `Authorization: Bearer <token>`, or, on an operation that accepts it (@PortalSession(), or a
 * forwarded operation whose OpenAPI security lists `portal`) and when no Authorization header
 * is sent, by the portal's session cookie. A token given wins over a cookie, so a request is
 * only ever one store's. A missing, malformed, expired, forged or revoked credential, or one of
 * an inactive store, is a 401. A session's change (any method but GET and HEAD) needs an
 * `Origin` equal to the request's own, and a `gerenciar` session: else 403.
 */
@Injectable()
export class LojaAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: TokenService,
    private readonly lojas: LojaStatusCache,
    private readonly sessoes: SessoesPortalService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    // Kafka message handlers share the app's global guards; tokens concern HTTP only.
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<string>(ROUTE_ACCESS, targets) === 'sem-token') return true;
    const request = context.switchToHttp().getRequest<PortalRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const portal = this.reflector.getAllAndOverride<PortalSessionAccess | undefined>(PORTAL_SESSION, targets) ?? request.portalSession;
    const authorization = header(request, 'authorization');
    if (portal && (portal.only || authorization === undefined)) {
      const segredo = parseCookies(header(request, 'cookie') ?? '')[PORTAL_COOKIE];
      if (segredo !== undefined || portal.only) return this.bySession(request, reply, segredo, portal);
    }
    const match = BEARER.exec(authorization ?? '');
    const claims = match ? await this.tokens.verificar(match[1]) : undefined;
    if (!claims || !tokenAceito(await this.lojas.get(claims.idLoja), claims.emitidoEmMs)) {
      throw unauthorized(reply, match ? 'Token inválido, expirado ou revogado.' : 'Envie Authorization: Bearer <token>.');
    }
    request.loja = { idLoja: claims.idLoja };
    requestContext.setLoja(claims.idLoja);
    return true;
  }

  private async bySession(request: PortalRequest, reply: FastifyReply, segredo: string | undefined, access: PortalSessionAccess): Promise<boolean> {
    if (segredo === undefined) throw unauthorized(reply, SESSAO_PORTAL_AUSENTE);
    const sessao = await this.sessoes.ler(segredo);
    if (!sessao || !tokenAceito(await this.lojas.get(sessao.idLoja), sessao.autorizadaEm.getTime())) throw unauthorized(reply, SESSAO_PORTAL_INVALIDA);
    if (sessao.expiraEm.getTime() <= Date.now()) throw unauthorized(reply, SESSAO_PORTAL_EXPIRADA);
    request.loja = { idLoja: sessao.idLoja };
    requestContext.setLoja(sessao.idLoja);
    // A browser sends Origin on every request but GET and HEAD; another site's page cannot
    // send this one's. SameSite=Strict already keeps the cookie from cross-site requests.
    if (!metodoDeLeitura(request.method) && header(request, 'origin') !== `${request.protocol}://${request.host}`) {
      throw new ForbiddenException(ORIGEM_RECUSADA);
    }
    if (!sessaoPortalPermite(sessao.capacidade, request.method, access.readOnlySessionMayChange)) throw new ForbiddenException(SESSAO_PORTAL_SO_CONSULTA);
    request.sessaoPortal = sessao;
    return true;
  }
}

function unauthorized(reply: FastifyReply, detail: string): UnauthorizedException {
  reply.header('WWW-Authenticate', 'Bearer');
  return new UnauthorizedException(detail);
}

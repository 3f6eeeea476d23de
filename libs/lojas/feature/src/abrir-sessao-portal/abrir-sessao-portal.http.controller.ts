import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiGoneResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import type { FastifyReply } from 'fastify';
import { CarriesCredential, SemToken } from '@trilha/http';
import { PORTAL_COOKIE_HEADER, setPortalCookie } from '../portal-cookie';
import { SessaoPortalResponse } from '../portal.response';
import { AbrirSessaoPortalHandler, LINK_EXPIRADO, LINK_INVALIDO, LINK_USADO } from './abrir-sessao-portal.handler';
import { AbrirSessaoPortalRequest } from './abrir-sessao-portal.request';

/** The portal's page sends the link's secret from its URL's fragment, and gets its session cookie. 30/min per client address. */
@ApiTags('Portal')
@Controller('portal/sessoes')
@SemToken()
export class AbrirSessaoPortalHttpController {
  constructor(private readonly handler: AbrirSessaoPortalHandler) {}

  @Post()
  @CarriesCredential()
  @HttpCode(201)
  @Throttle({ default: { limit: 30, ttl: 60_000 } })
  @ApiOperation({ operationId: 'abrirSessaoPortal', summary: 'Abre a sessão do portal com o segredo de um link (uma vez, em até 15 minutos): o cookie da sessão vem em Set-Cookie.' })
  @ApiCreatedResponse({ type: SessaoPortalResponse, headers: PORTAL_COOKIE_HEADER })
  @ApiUnauthorizedResponse({ description: LINK_INVALIDO })
  @ApiGoneResponse({ description: `${LINK_USADO} Ou: ${LINK_EXPIRADO}` })
  async abrir(@Body() body: AbrirSessaoPortalRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessaoPortalResponse> {
    const sessao = await this.handler.execute(body.link);
    setPortalCookie(reply, sessao.segredo, sessao.duracao);
    return { idLoja: sessao.idLoja, nomeLoja: sessao.nomeLoja, capacidade: sessao.capacidade, expiraEm: sessao.expiraEm.toISOString() };
  }
}

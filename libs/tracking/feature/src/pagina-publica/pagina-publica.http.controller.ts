import { Controller, Get, Param, RequestMethod, Res } from '@nestjs/common';
import { ApiExcludeEndpoint } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { SecretParams, SemLoja } from '@trilha/http';
import { PaginaPublicaHandler } from './pagina-publica.handler';
import { CABECALHOS_DA_PAGINA } from './pagina-publica.html';

/** Served outside /v1: the gateway forwards GET /rastreio/<token> here, without a store token. */
export const PAGINA_PUBLICA_ROUTES = [{ path: 'rastreio/:token', method: RequestMethod.GET }];

/** The public tracking page at linkRastreio, for the store's customers. */
@Controller('rastreio')
export class PaginaPublicaHttpController {
  constructor(private readonly handler: PaginaPublicaHandler) {}

  @Get(':token')
  @SecretParams('token')
  @SemLoja()
  @ApiExcludeEndpoint()
  async pagina(@Param('token') token: string, @Res() reply: FastifyReply): Promise<void> {
    const { status, html } = await this.handler.execute(token);
    reply
      .status(status)
      .headers({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', ...CABECALHOS_DA_PAGINA })
      .send(html);
  }
}

import { Controller, Get, Param, RequestMethod, Res } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ApiExcludeEndpoint } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { DataSource } from 'typeorm';
import { SecretParams, SemLoja } from '@trilha/http';
import { vistaDoCliente } from '@trilha/tracking-domain';
import { TOKEN_RASTREIO } from '../ids';
import { CABECALHOS_DA_PAGINA, paginaNaoEncontrada, paginaRastreio } from './pagina-publica.html';

/** Served outside /v1: the gateway forwards GET /rastreio/<token> here, without a store token. */
export const PAGINA_PUBLICA_ROUTES = [{ path: 'rastreio/:token', method: RequestMethod.GET }];

/** The public tracking page at linkRastreio, for the store's customers. */
@Controller('rastreio')
export class PaginaPublicaHttpController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Get(':token')
  @SecretParams('token')
  @SemLoja()
  @ApiExcludeEndpoint()
  async pagina(@Param('token') token: string, @Res() reply: FastifyReply): Promise<void> {
    const [row]: { numero_pedido: string; documento: string | null }[] = TOKEN_RASTREIO.test(token)
      ? await this.dataSource.query(
          `SELECT p.numero_pedido, r.documento FROM pedidos p LEFT JOIN rastreios r ON r.id_pedido = p.id_pedido WHERE p.token_rastreio = $1`,
          [token],
        )
      : [];
    reply
      .status(row ? 200 : 404)
      .headers({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', ...CABECALHOS_DA_PAGINA })
      .send(row ? paginaRastreio(vistaDoCliente(row.documento && JSON.parse(row.documento), row.numero_pedido)) : paginaNaoEncontrada());
  }
}

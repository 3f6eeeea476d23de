import { Controller, Get, Query } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { DataSource } from 'typeorm';
import { IdLoja } from '@trilha/http';
import { EntregasResponse } from './entrega.response';
import { entregasComTentativas } from './entregas.query';
import { ListarEntregasRequest } from './listar-entregas.request';

@ApiTags('Webhook')
@ApiBearerAuth()
@Controller('webhook/entregas')
export class ListarEntregasHttpController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Get()
  @ApiOperation({ operationId: 'listarEntregas', summary: 'As entregas do webhook e suas tentativas, das mais recentes às mais antigas.' })
  @ApiOkResponse({ type: EntregasResponse })
  async listar(@IdLoja() idLoja: number, @Query() query: ListarEntregasRequest): Promise<EntregasResponse> {
    const { pagina, porPagina, status } = query;
    const [[{ total }], rows] = await Promise.all([
      this.dataSource.query(`SELECT count(*)::int AS total FROM entregas WHERE id_loja = $1 AND ($2::text IS NULL OR status = $2)`, [idLoja, status ?? null]),
      this.dataSource.query(
        `SELECT id_entrega, id_evento, evento, status FROM entregas
         WHERE id_loja = $1 AND ($2::text IS NULL OR status = $2)
         ORDER BY posicao DESC LIMIT $3 OFFSET $4`,
        [idLoja, status ?? null, porPagina, (pagina - 1) * porPagina],
      ),
    ]);
    return { pagina, porPagina, total, totalPaginas: Math.ceil(total / porPagina), entregas: await entregasComTentativas(this.dataSource, rows) };
  }
}

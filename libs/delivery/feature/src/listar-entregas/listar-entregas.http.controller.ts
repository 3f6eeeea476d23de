import { Controller, Get, Query } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { DataSource } from 'typeorm';
import { IdLoja } from '@trilha/http';
import { EntregasResponse } from './entrega.response';
import { entregasComTentativas, type EntregaRow } from './entregas.query';
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
    // One statement, so the count and the page come from one snapshot (two queries could count
    // deliveries the page did not see); it returns one row even past the last page.
    const [{ total, entregas }]: { total: number; entregas: EntregaRow[] }[] = await this.dataSource.query(
      `SELECT (SELECT count(*)::int FROM entregas WHERE id_loja = $1 AND ($2::text IS NULL OR status = $2)) AS total,
              (SELECT coalesce(json_agg(pagina ORDER BY pagina.posicao DESC), '[]')
               FROM (SELECT id_entrega, id_evento, evento, status, posicao FROM entregas
                     WHERE id_loja = $1 AND ($2::text IS NULL OR status = $2)
                     ORDER BY posicao DESC LIMIT $3 OFFSET $4) AS pagina) AS entregas`,
      [idLoja, status ?? null, porPagina, (pagina - 1) * porPagina],
    );
    return { pagina, porPagina, total, totalPaginas: Math.ceil(total / porPagina), entregas: await entregasComTentativas(this.dataSource, entregas) };
  }
}

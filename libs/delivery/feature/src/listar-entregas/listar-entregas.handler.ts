import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { EntregasResponse } from './entrega.response';
import { entregasComTentativas, type EntregaRow } from './entregas-com-tentativas';
import type { ListarEntregasRequest } from './listar-entregas.request';

/** GET /webhook/entregas: a page of the store's deliveries, newest first, with their attempts. */
@Injectable()
export class ListarEntregasHandler {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async execute(idLoja: number, { pagina, porPagina, status }: ListarEntregasRequest): Promise<EntregasResponse> {
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

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { FilaResponse } from './fila.response';

interface ItemRow {
  id_documento: string;
  evento: string;
  data: object;
  data_criacao: Date;
  entrega_falhou: boolean;
  total: number;
}

/** GET /fila/lista (docs/API.md section 8): the store's pending items, oldest first; listing removes nothing. */
@Injectable()
export class ListarFilaHandler {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async execute(idLoja: number, limite: number): Promise<FilaResponse> {
    // One statement, so the count and the items come from one snapshot (two queries could count
    // items the listing did not see); both read the partial index of pending items (fila_pendentes).
    // No row means no pending item in that snapshot, as limite is at least 1.
    const rows: ItemRow[] = await this.dataSource.query(
      `SELECT id_documento, evento, data, data_criacao, entrega_falhou,
              (SELECT count(*)::int FROM fila WHERE id_loja = $1 AND removido_em IS NULL) AS total
       FROM fila WHERE id_loja = $1 AND removido_em IS NULL ORDER BY posicao LIMIT $2`,
      [idLoja, limite],
    );
    return {
      total: rows[0]?.total ?? 0,
      eventos: rows.map((row) => ({
        idDocumento: row.id_documento,
        evento: row.evento,
        data: row.data,
        dataCriacao: row.data_criacao.toISOString(),
        entregaFalhou: row.entrega_falhou,
      })),
    };
  }
}

import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { TIPO_PEDIDO_PADRAO } from '@trilha/tracking-domain';
import type { ConsultarRastreioRequest } from './consultar-rastreio.request';

// Every lookup is scoped to the token's store; ties go to tipoPedido, else the envio, else the newest.
const DESEMPATE = `($3::text IS NULL OR r.tipo_pedido = $3) ORDER BY r.tipo_pedido = '${TIPO_PEDIDO_PADRAO}' DESC, r.id_pedido DESC LIMIT 1`;
const CONSULTAS = {
  idPedido: `SELECT documento FROM rastreios r WHERE r.id_loja = $1 AND r.id_pedido = $2 AND ${DESEMPATE}`,
  numeroPedido: `SELECT documento FROM rastreios r WHERE r.id_loja = $1 AND r.numero_pedido = $2 AND ${DESEMPATE}`,
  pedidoCanal: `SELECT documento FROM rastreios r WHERE r.id_loja = $1 AND r.pedido_canal = $2 AND ${DESEMPATE}`,
  // A tracking code finds its order, and the record has every volume of it.
  codigoRastreio: `SELECT r.documento FROM rastreio_codigos c JOIN rastreios r ON r.id_pedido = c.id_pedido
                   WHERE c.id_loja = $1 AND c.codigo_rastreio = $2 AND ${DESEMPATE}`,
} as const;

/**
 * GET /pedidoRastreio: one indexed query that returns the stored record as it is sent. The
 * hottest route of the API, so it skips TypeORM's query runner and uses named prepared
 * statements on the same pool: each connection plans each query once.
 */
@Injectable()
export class ConsultarRastreioHandler {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async execute(idLoja: number, query: ConsultarRastreioRequest): Promise<string> {
    const pool = (this.dataSource.driver as PostgresDriver).master as Pool;
    const { rows } = await pool.query<{ documento: string }>({
      name: `rastreio-por-${query.chave}`,
      text: CONSULTAS[query.chave],
      values: [idLoja, query.valor, query.tipoPedido ?? null],
    });
    if (rows.length === 0) throw new NotFoundException('Nenhum rastreio manual para esse filtro nesta loja.');
    return rows[0].documento;
  }
}

import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { ConsultarRastreioQuery } from './consultar-rastreio.query';

// Every lookup is scoped to the token's store; ties go to tipoPedido, else the envio, else the newest.
const DESEMPATE = `($3::text IS NULL OR r.tipo_pedido = $3) ORDER BY r.tipo_pedido = 'envio' DESC, r.id_pedido DESC LIMIT 1`;
const CONSULTAS = {
  idPedido: `SELECT documento FROM rastreios r WHERE r.id_loja = $1 AND r.id_pedido = $2 AND ${DESEMPATE}`,
  numeroPedido: `SELECT documento FROM rastreios r WHERE r.id_loja = $1 AND r.numero_pedido = $2 AND ${DESEMPATE}`,
  pedidoCanal: `SELECT documento FROM rastreios r WHERE r.id_loja = $1 AND r.pedido_canal = $2 AND ${DESEMPATE}`,
  // A tracking code finds its order, and the record has every volume of it.
  codigoRastreio: `SELECT r.documento FROM rastreio_codigos c JOIN rastreios r ON r.id_pedido = c.id_pedido
                   WHERE c.id_loja = $1 AND c.codigo_rastreio = $2 AND ${DESEMPATE}`,
} as const;

/** GET /pedidoRastreio: one indexed query that returns the stored record as it is sent. */
@Injectable()
export class ConsultarRastreioHandler {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async execute(idLoja: number, query: ConsultarRastreioQuery): Promise<string> {
    const rows: { documento: string }[] = await this.dataSource.query(CONSULTAS[query.chave], [idLoja, query.valor, query.tipoPedido ?? null]);
    if (rows.length === 0) throw new NotFoundException('Nenhum rastreio manual para esse filtro nesta loja.');
    return rows[0].documento;
  }
}

import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { TIPO_PEDIDO_PADRAO } from '@trilha/tracking-domain';
import type { ConsultarPedidoRequest } from './consultar-pedido.request';

const COLUNA = { idPedido: 'id_pedido', numeroPedido: 'numero_pedido', pedidoCanal: 'pedido_canal' } as const;

/**
 * One order of the store by a filter. When several match (an envio and a reversa with one
 * number, or one channel number on several orders), tipoPedido decides, else the envio, else
 * the newest.
 */
@Injectable()
export class ConsultarPedidoHandler {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The order's JSON, as stored by the read model. */
  async execute(idLoja: number, query: ConsultarPedidoRequest): Promise<string> {
    const rows: { documento: string }[] = await this.dataSource.query(
      `SELECT documento FROM pedidos
       WHERE id_loja = $1 AND ${COLUNA[query.chave]} = $2 AND ($3::text IS NULL OR tipo_pedido = $3)
       ORDER BY tipo_pedido = '${TIPO_PEDIDO_PADRAO}' DESC, id_pedido DESC
       LIMIT 1`,
      [idLoja, query.valor, query.tipoPedido ?? null],
    );
    if (rows.length === 0) throw new NotFoundException('Pedido não encontrado nesta loja.');
    return rows[0].documento;
  }
}

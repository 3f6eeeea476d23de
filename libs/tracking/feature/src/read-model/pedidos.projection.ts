import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { writeAtCommit, type Projection, type AppendedEvent } from '@trilha/event-store';
import type { PedidoSalvo } from '@trilha/tracking-domain';
import { pedidoResposta } from '../pedido.response';

/**
 * Orders (GET /pedido, /pedidos) and the public page's token → order lookup. Its unique key
 * (store, numeroPedido, tipoPedido) guards the upsert: of two racing first writes, one fails.
 */
@Injectable()
export class PedidosProjection implements Projection<PedidoSalvo> {
  readonly name = 'pedidos';
  readonly handles = ['pedido.salvo'] as const;
  readonly tables = ['pedidos'];

  async apply(manager: EntityManager, stored: AppendedEvent<PedidoSalvo>): Promise<void> {
    const { data: pedido } = stored;
    await writeAtCommit(
      manager,
      `INSERT INTO pedidos (id_pedido, id_loja, numero_pedido, tipo_pedido, pedido_canal, situacao, data_pedido, token_rastreio, documento)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (id_pedido) DO UPDATE SET
         numero_pedido = EXCLUDED.numero_pedido, tipo_pedido = EXCLUDED.tipo_pedido, pedido_canal = EXCLUDED.pedido_canal,
         situacao = EXCLUDED.situacao, data_pedido = EXCLUDED.data_pedido, documento = EXCLUDED.documento`,
      [pedido.idPedido, stored.idLoja, pedido.numeroPedido, pedido.tipoPedido, pedido.pedidoCanal, pedido.situacao, pedido.dataPedido,
        pedido.tokenRastreio, JSON.stringify(pedidoResposta(pedido))],
    );
  }
}

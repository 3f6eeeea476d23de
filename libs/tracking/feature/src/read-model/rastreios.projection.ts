import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Projection, StoredEvent } from '@trilha/event-store';
import { evolveRastreio, registroRastreio, type PedidoEvent, type Rastreio } from '@trilha/tracking-domain';
import { bloquearEscritas } from './bloquear-escritas';

/**
 * Tracking records (GET /pedidoRastreio, the public page), with the lookups that find an
 * order by a volume's tracking code and by an event's hash (corrections). The record is
 * stored as the JSON the API answers, so a read is one indexed query and no serialisation.
 */
@Injectable()
export class RastreiosProjection implements Projection {
  readonly name = 'rastreios';
  readonly handles = ['pedido.salvo', 'rastreio.evento.registrado', 'rastreio.evento.corrigido'];

  async apply(manager: EntityManager, stored: StoredEvent): Promise<void> {
    const event = stored as unknown as PedidoEvent;
    const { idPedido } = event.data;
    const [row]: { estado: Rastreio }[] = await manager.query(`SELECT estado FROM rastreios WHERE id_pedido = $1`, [idPedido]);
    const rastreio = evolveRastreio(row?.estado ?? null, event);
    if (!rastreio) return; // an order without tracking yet
    const { pedido } = rastreio;
    await manager.query(
      `INSERT INTO rastreios (id_pedido, id_loja, numero_pedido, tipo_pedido, pedido_canal, estado, documento)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (id_pedido) DO UPDATE SET
         numero_pedido = EXCLUDED.numero_pedido, tipo_pedido = EXCLUDED.tipo_pedido, pedido_canal = EXCLUDED.pedido_canal,
         estado = EXCLUDED.estado, documento = EXCLUDED.documento`,
      [idPedido, stored.idLoja, pedido.numeroPedido, pedido.tipoPedido, pedido.pedidoCanal, rastreio, JSON.stringify(registroRastreio(rastreio))],
    );
    if (event.type !== 'rastreio.evento.registrado') return;
    await manager.query(`INSERT INTO rastreio_hashes (hash, id_loja, id_pedido) VALUES ($1, $2, $3)`, [event.data.hash, stored.idLoja, idPedido]);
    // Only a code new to the order needs its lookup row.
    const codigo = event.data.codigoRastreio;
    if (codigo && !row?.estado.volumes.some((volume) => volume.codigoRastreio === codigo)) {
      await manager.query(`INSERT INTO rastreio_codigos (id_loja, codigo_rastreio, id_pedido) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [stored.idLoja, codigo, idPedido]);
    }
  }

  async reset(manager: EntityManager): Promise<void> {
    await bloquearEscritas(manager);
    await manager.query(`DELETE FROM rastreio_codigos`);
    await manager.query(`DELETE FROM rastreio_hashes`);
    await manager.query(`DELETE FROM rastreios`);
  }
}

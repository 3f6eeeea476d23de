import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { streamBefore, writeAtCommit, type AppendedEvent, type PreparedStatement, type Projection } from '@trilha/event-store';
import { evolveRastreio, registroRastreio, type PedidoEvent, type Rastreio } from '@trilha/tracking-domain';

/**
 * The record's upsert, its lookups written by the data-modifying CTEs: one statement, sent with
 * the COMMIT and prepared once per connection (its planning costs PostgreSQL more than its run).
 */
const GRAVAR_REGISTRO: PreparedStatement = {
  name: 'tracking_gravar_registro',
  text: `WITH hash AS (INSERT INTO rastreio_hashes (hash, id_loja, id_pedido) SELECT $7::text, $2::integer, $1::text WHERE $7::text IS NOT NULL),
              codigo AS (INSERT INTO rastreio_codigos (id_loja, codigo_rastreio, id_pedido) SELECT $2::integer, $8::text, $1::text WHERE $8::text IS NOT NULL ON CONFLICT DO NOTHING)
         INSERT INTO rastreios (id_pedido, id_loja, numero_pedido, tipo_pedido, pedido_canal, documento)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (id_pedido) DO UPDATE SET
           numero_pedido = EXCLUDED.numero_pedido, tipo_pedido = EXCLUDED.tipo_pedido, pedido_canal = EXCLUDED.pedido_canal, documento = EXCLUDED.documento`,
};

/**
 * Tracking records (GET /pedidoRastreio, the public page), with the lookups that find an
 * order by a volume's tracking code and by an event's hash (corrections). The record is
 * stored as the JSON the API answers, so a read is one indexed query and no serialisation.
 */
@Injectable()
export class RastreiosProjection implements Projection<PedidoEvent> {
  readonly name = 'rastreios';
  readonly handles = ['pedido.salvo', 'rastreio.evento.registrado', 'rastreio.evento.corrigido'] as const;
  readonly tables = ['rastreio_hashes', 'rastreio_codigos', 'rastreios'];

  async apply(manager: EntityManager, event: AppendedEvent<PedidoEvent>, stream?: readonly AppendedEvent<PedidoEvent>[]): Promise<void> {
    const { idPedido } = event.data;
    // The record before this event is the fold of the stream before it: the stream a command
    // has just read, or, in a rebuild, the same events read from the log.
    const antes = stream ?? (await streamBefore(manager, event));
    const anterior = antes.reduce<Rastreio | null>(evolveRastreio, null);
    const rastreio = evolveRastreio(anterior, event);
    if (!rastreio) return; // an order without tracking yet
    const { pedido } = rastreio;
    const registrado = event.type === 'rastreio.evento.registrado' ? event.data : undefined;
    // Only a code new to the order needs its lookup row.
    const codigo = registrado?.codigoRastreio && !anterior?.volumes.some((volume) => volume.codigoRastreio === registrado.codigoRastreio)
      ? registrado.codigoRastreio
      : null;
    await writeAtCommit(
      manager,
      GRAVAR_REGISTRO,
      [idPedido, event.idLoja, pedido.numeroPedido, pedido.tipoPedido, pedido.pedidoCanal, JSON.stringify(registroRastreio(rastreio)),
        registrado?.hash ?? null, codigo],
    );
  }
}

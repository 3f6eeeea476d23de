import { schemaVersionWritten, TOPICS, TRACKING_CONTRACT, type PedidoSalvoData } from '@trilha/contracts';
import type { OutboxRouting } from '@trilha/event-store';
import type { Pedido } from '@trilha/tracking-domain';

/**
 * Every event of an order goes to `tracking.events.v1`. `pedido.salvo` is published with the
 * contract's fields only: the customer's data and the page token's bookkeeping stay here.
 */
export const trackingRouting: OutboxRouting = (event) => {
  const schemaVersion = schemaVersionWritten(TRACKING_CONTRACT, event.type);
  if (event.type !== 'pedido.salvo') return { topic: TOPICS.tracking, schemaVersion, data: event.data };
  const { idPedido, numeroPedido, tipoPedido, pedidoCanal, linkRastreio, situacao, atualizadoEm } = event.data as Pedido;
  const data: PedidoSalvoData = { idPedido, numeroPedido, tipoPedido, pedidoCanal, linkRastreio, situacao, atualizadoEm };
  return { topic: TOPICS.tracking, schemaVersion, data };
};

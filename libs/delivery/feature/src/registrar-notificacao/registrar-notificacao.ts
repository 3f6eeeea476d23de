import type { EntityManager } from 'typeorm';
import type { EventEnvelope } from '@trilha/contracts';
import { FLAG_DO_EVENTO } from '@trilha/delivery-domain';
import { currentTraceparent } from '@trilha/observability';
import { CANAL_ENTREGAS, travarLojas } from '../shared/banco';
import { enfileirar } from '../shared/fila';
import { webhookDaLoja } from '../shared/webhooks';

export type Destino = 'webhook' | 'fila' | 'desligado';

/**
 * Records where a store's notification goes (CONTRACT.md section 7), in the consumer's
 * transaction and without touching the network: a delivery for the dispatcher when the store
 * has a webhook that wants the event, nothing when its flag is off, the queue when the store
 * has no webhook. A delivery is due at once unless an earlier first attempt of the store is
 * still to be made; then it waits its turn (the dispatcher makes it due).
 */
export async function registrarNotificacao(manager: EntityManager, event: EventEnvelope): Promise<Destino> {
  await travarLojas(manager, [event.idLoja]);
  const webhook = await webhookDaLoja(manager, event.idLoja);
  if (!webhook) {
    await enfileirar(manager, [{ idLoja: event.idLoja, idEvento: event.id, evento: event.type, data: event.data, entregaFalhou: false }]);
    return 'fila';
  }
  if (!webhook.eventos[FLAG_DO_EVENTO[event.type]]) return 'desligado';
  // The dispatchers are woken (at commit) only when the delivery is due now.
  await manager.query(
    `WITH nova AS (
       INSERT INTO entregas (id_loja, id_evento, evento, data, traceparent, ocorrido_em, proxima_em)
       SELECT $1, $2, $3, $4, $5, $6,
              CASE WHEN EXISTS (SELECT 1 FROM entregas WHERE id_loja = $1 AND status = 'pendente' AND tentativas = 0) THEN NULL ELSE now() END
       ON CONFLICT (id_evento) DO NOTHING
       RETURNING proxima_em
     )
     SELECT pg_notify($7, '') FROM nova WHERE proxima_em IS NOT NULL`,
    [event.idLoja, event.id, event.type, JSON.stringify(event.data), currentTraceparent() ?? event.traceparent, event.occurredAt, CANAL_ENTREGAS],
  );
  return 'webhook';
}

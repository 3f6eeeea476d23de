import type { EntityManager } from 'typeorm';
import type { EventEnvelope } from '@trilha/contracts';
import { FLAG_DO_EVENTO, FLAGS_PADRAO } from '@trilha/delivery-domain';
import { novoId } from '@trilha/ids';
import { currentTraceparent } from '@trilha/observability';
import { writeAtCommit } from '@trilha/event-store';
import { CANAL_ENTREGAS, travarLojas } from '../shared';

/**
 * Records where a store's notification goes (docs/API.md section 7), in the consumer's
 * transaction and without touching the network: a delivery for the dispatcher when the store
 * has an active webhook that wants the event, nothing when its flag is off, the queue when the
 * store has no webhook. A delivery is due at once unless an earlier first attempt of the store is
 * still to be made; then it waits its turn (the dispatcher makes it due). While the webhook is
 * deactivated (410 Gone, or failing too long) the event goes to the queue with `entregaFalhou`
 * and a delivery `falhou` without attempts, which POST /webhook/entregas/recuperar can send.
 * The delivery's and the queue item's ids are new UUIDv7s (@trilha/ids), so they sort by creation.
 * Nothing is read back: in the consumer, the lock and the statement travel with the COMMIT.
 */
export async function registrarNotificacao(manager: EntityManager, event: EventEnvelope): Promise<void> {
  // The lock comes first, in its own statement, so the next one reads what the store's other
  // writers committed before it (READ COMMITTED takes a snapshot per statement).
  await travarLojas(manager, [event.idLoja]);
  await writeAtCommit(
    manager,
    `WITH webhook AS (
       -- A registration stored before the event's flag existed lacks its key: the flag's default holds.
       SELECT coalesce((eventos ->> $7)::boolean, $9::boolean) AS quer, ativo FROM webhooks WHERE id_loja = $1
     ), entrega AS (
       INSERT INTO entregas (id_entrega, id_loja, id_evento, evento, data, traceparent, ocorrido_em, status, proxima_em)
       SELECT $10, $1, $2, $3, $4, $5, $6,
              CASE WHEN ativo THEN 'pendente' ELSE 'falhou' END,
              CASE WHEN NOT ativo OR EXISTS (SELECT 1 FROM entregas WHERE id_loja = $1 AND status = 'pendente' AND tentativas = 0) THEN NULL ELSE now() END
       FROM webhook WHERE quer
       RETURNING proxima_em
     ), fila AS (
       INSERT INTO fila (id_documento, id_loja, id_evento, evento, data, entrega_falhou)
       SELECT $11, $1, $2, $3, $4, EXISTS (SELECT 1 FROM webhook)
       WHERE NOT EXISTS (SELECT 1 FROM webhook WHERE ativo OR NOT quer)
       ON CONFLICT (id_evento) DO NOTHING
     )
     -- The dispatchers are woken (at commit) only when the delivery is due now.
     SELECT pg_notify($8, '') FROM entrega WHERE proxima_em IS NOT NULL`,
    [event.idLoja, event.id, event.type, JSON.stringify(event.data), currentTraceparent() ?? event.traceparent, event.occurredAt, FLAG_DO_EVENTO[event.type], CANAL_ENTREGAS, FLAGS_PADRAO[FLAG_DO_EVENTO[event.type]] ?? null, novoId(), novoId()],
  );
}

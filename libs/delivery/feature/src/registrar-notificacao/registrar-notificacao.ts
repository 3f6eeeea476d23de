import type { EntityManager } from 'typeorm';
import { NOTIFICATIONS, type EventEnvelope, type Notificacao, type TopicName } from '@trilha/contracts';
import { corpoNotificacao } from '@trilha/delivery-domain';
import { novoId } from '@trilha/ids';
import { currentTraceparent } from '@trilha/observability';
import { writeAtCommit, type PreparedStatement } from '@trilha/event-store';
import { CANAL_ENTREGAS, travarLojas, webhookFromRow, type WebhookRow } from '../shared';
import type { Claimed } from '../despachar-entregas/entregas-devidas';

/**
 * A claim for this replica that the consumer makes as it records a delivery due at once, as the
 * record of an attempt claims a store's next one (`Despachante.claimOnRecord`): the
 * record's statement leases the delivery with `lease`, and `tentar` gets it once the record
 * has committed, with no claim, NOTIFY or wake-up of its own.
 */
export interface ClaimOnRecord {
  lease: string;
  leaseMs: number;
  tentar(entrega: Claimed): void;
}

/** The notification's record: one statement, prepared once per connection (its planning costs more than its run). */
const REGISTRO: PreparedStatement = {
  name: 'delivery_registrar_notificacao',
  text: `WITH webhook AS (
       -- A registration stored before the event's flag existed lacks its key: the flag's default holds.
       SELECT coalesce((eventos ->> $7::text)::boolean, $9::boolean) AS quer, * FROM webhooks WHERE id_loja = $1::int
     ), entrega AS (
       INSERT INTO entregas (id_entrega, id_loja, id_evento, evento, data, traceparent, ocorrido_em, status, proxima_em, lease)
       SELECT $10::uuid, $1, $2::uuid, $3::text, $4::json, $5::text, $6::timestamptz,
              CASE WHEN ativo THEN 'pendente' ELSE 'falhou' END,
              CASE WHEN NOT devida THEN NULL WHEN $12::uuid IS NULL THEN now() ELSE now() + make_interval(secs => $13::float8) END,
              CASE WHEN devida THEN $12::uuid END
       FROM webhook
       CROSS JOIN LATERAL (SELECT ativo AND NOT EXISTS (SELECT 1 FROM entregas WHERE id_loja = $1 AND status = 'pendente' AND tentativas = 0) AS devida) d
       WHERE quer
       RETURNING proxima_em, lease
     ), fila AS (
       INSERT INTO fila (id_documento, id_loja, id_evento, evento, data, entrega_falhou)
       SELECT $11::uuid, $1, $2, $3, $4, EXISTS (SELECT 1 FROM webhook)
       WHERE NOT EXISTS (SELECT 1 FROM webhook WHERE ativo OR NOT quer)
       ON CONFLICT (id_evento) DO NOTHING
     )
     -- Due now: claimed here, or else the dispatchers are woken (at commit).
     SELECT e.lease, w.id_loja, w.id_webhook, w.url, w.eventos, w.segredo, w.criado_em, w.ativo, w.segredo_anterior, w.segredo_anterior_ate,
            CASE WHEN e.lease IS NULL THEN pg_notify($8::text, '') END AS aviso
     FROM entrega e CROSS JOIN webhook w WHERE e.proxima_em IS NOT NULL`,
};

/** The notifications of each topic, by event type: all the delivery service takes from a topic to notify stores of. */
const NOTIFICACOES_POR_TOPICO = new Map<string, ReadonlyMap<string, Notificacao>>(
  [...new Set(NOTIFICATIONS.map((notificacao) => notificacao.topic))].map((topic) => [
    topic,
    new Map(NOTIFICATIONS.filter((notificacao) => notificacao.topic === topic).map((notificacao) => [notificacao.evento, notificacao])),
  ]),
);

/** The event types NOTIFICATIONS names on `topic`: its consumer's `@EventPattern` passes the others over unread. */
export function eventosNotificados(topic: TopicName): string[] {
  return [...(NOTIFICACOES_POR_TOPICO.get(topic)?.keys() ?? [])];
}

/** The record's row when the delivery is due at once: the store's webhook, and the lease when claimed here. */
interface DevidaRow extends WebhookRow {
  lease: string | null;
}

/**
 * Records where a store's notification goes (docs/API.md section 7), in the consumer's
 * transaction and without touching the network: a delivery for the dispatcher when the store
 * has an active webhook that wants the event, nothing when its flag is off, the queue when the
 * store has no webhook. A delivery is due at once unless an earlier first attempt of the store is
 * still to be made; then it waits its turn (the dispatcher makes it due). Due at once, it is
 * claimed here when `claim` is given (the replica has room for it), and otherwise
 * announced to every replica's dispatcher (NOTIFY at commit). While the webhook is deactivated
 * (410 Gone, or failing too long) the event goes to the queue with `entregaFalhou` and a
 * delivery `falhou` without attempts, which POST /webhook/entregas/recuperar can send.
 * The delivery's and the queue item's ids are new UUIDv7s (@trilha/ids), so they sort by creation.
 * In the consumer, the lock and the statement travel with the COMMIT.
 *
 * `event`, read from `topic`, is the notification NOTIFICATIONS names for its type on that
 * topic; any other event (one a topic carries for another purpose, or a notification's type on
 * another topic) is none, and records nothing.
 */
export async function registrarNotificacao(manager: EntityManager, topic: TopicName, event: EventEnvelope, claim?: ClaimOnRecord): Promise<void> {
  const notificacao = NOTIFICACOES_POR_TOPICO.get(topic)?.get(event.type);
  if (!notificacao) return;
  // The lock comes first, in its own statement, so the next one reads what the store's other
  // writers committed before it (READ COMMITTED takes a snapshot per statement).
  await travarLojas(manager, [event.idLoja]);
  const idEntrega = novoId();
  const traceparent = currentTraceparent() ?? event.traceparent;
  const claimedFrom = (row: DevidaRow): Claimed => ({
    idEntrega,
    idLoja: event.idLoja,
    idEvento: event.id,
    corpo: corpoNotificacao(event.type, event.data),
    traceparent,
    traceparentPrimeira: null,
    estado: { status: 'pendente', tentativas: 0, manual: false },
    recuperar: false,
    lease: row.lease!,
    webhook: webhookFromRow(row),
  });
  await writeAtCommit(
    manager,
    REGISTRO,

    [
      event.idLoja, event.id, event.type, JSON.stringify(event.data), traceparent, event.occurredAt, notificacao.flag, CANAL_ENTREGAS,
      notificacao.padrao, idEntrega, novoId(), claim?.lease ?? null, (claim?.leaseMs ?? 0) / 1000,
    ],
    claim &&
      ((rows) => {
        for (const row of rows as unknown as DevidaRow[]) if (row.lease !== null) claim.tentar(claimedFrom(row));
      }),
  );
}

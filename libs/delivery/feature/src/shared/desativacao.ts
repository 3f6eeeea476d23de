import type { EntityManager } from 'typeorm';
import { novoId } from '@trilha/ids';
import { enfileirar } from './fila';

/** The queue item that tells a store its webhook was deactivated. */
const EVENTO_DESATIVADO = 'webhook.desativado';

interface Pendente {
  id_evento: string;
  evento: string;
  data: object;
  posicao: string;
}

/**
 * Deactivates a store's webhook (410 Gone, or every attempt failed for WEBHOOK_DISABLE_AFTER), in
 * the caller's transaction, which holds the store's lock: the webhook keeps its registration but
 * receives nothing; a `webhook.desativado` item with the reason and the time goes to the queue,
 * then every pending delivery not in flight, in the order its events occurred, marked `falhou`
 * with `entregaFalhou` (POST /webhook/entregas/recuperar can send them once it is back). A
 * delivery in flight is left to its attempt (EntregasDevidas.concluir: a 200 delivers it, a
 * failure queues it); resends and recoveries waiting are dropped.
 * Only the registration `idWebhook` is deactivated: one registered since is left alone.
 */
export async function desativarWebhook(manager: EntityManager, idLoja: number, idWebhook: string, motivo: string): Promise<void> {
  const [desativados]: [{ desativado_em: Date; url: string }[], number] = await manager.query(
    `UPDATE webhooks SET ativo = false, motivo_desativacao = $3, desativado_em = now()
     WHERE id_loja = $1 AND id_webhook = $2 AND ativo RETURNING desativado_em, url`,
    [idLoja, idWebhook, motivo],
  );
  const [desativado] = desativados;
  if (!desativado) return;
  await enfileirar(manager, [
    { idLoja, idEvento: novoId(), evento: EVENTO_DESATIVADO, data: { idLoja, url: desativado.url, motivo, dataDesativacao: desativado.desativado_em.toISOString() }, entregaFalhou: false },
  ]);
  const [pendentes]: [Pendente[], number] = await manager.query(
    `UPDATE entregas SET status = 'falhou', proxima_em = NULL, manual = false, recuperar = false
     WHERE id_loja = $1 AND status = 'pendente' AND lease IS NULL RETURNING id_evento, evento, data, posicao`,
    [idLoja],
  );
  pendentes.sort((a, b) => Number(a.posicao) - Number(b.posicao));
  await enfileirar(manager, pendentes.map((p) => ({ idLoja, idEvento: p.id_evento, evento: p.evento, data: p.data, entregaFalhou: true })));
  await manager.query(`UPDATE entregas SET proxima_em = NULL, manual = false, recuperar = false WHERE id_loja = $1 AND lease IS NULL AND (manual OR recuperar)`, [idLoja]);
}

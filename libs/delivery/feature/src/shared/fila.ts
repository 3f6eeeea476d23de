import type { EntityManager } from 'typeorm';
import { novoId } from '@trilha/ids';

export interface ItemParaFila {
  idLoja: number;
  idEvento: string;
  evento: string;
  data: object;
  entregaFalhou: boolean;
}

/**
 * Puts events in their stores' queues; an event already queued once (even if since removed) is
 * not queued again. Each item's `id_documento` is a new UUIDv7 (@trilha/ids), so ids sort by creation.
 */
export async function enfileirar(manager: EntityManager, itens: ItemParaFila[]): Promise<void> {
  if (itens.length === 0) return;
  await manager.query(
    `INSERT INTO fila (id_documento, id_loja, id_evento, evento, data, entrega_falhou)
     SELECT * FROM unnest($1::uuid[], $2::int[], $3::uuid[], $4::text[], $5::json[], $6::boolean[])
     ON CONFLICT (id_evento) DO NOTHING`,
    [itens.map(() => novoId()), itens.map((i) => i.idLoja), itens.map((i) => i.idEvento), itens.map((i) => i.evento), itens.map((i) => JSON.stringify(i.data)), itens.map((i) => i.entregaFalhou)],
  );
}

/** A pending delivery taken out of `entregas` (`DELETE … RETURNING` these columns). */
export interface EntregaRetirada {
  id_loja: number;
  id_evento: string;
  evento: string;
  data: object;
  tentativas: number;
  posicao: string;
}

/** Columns to return when deleting pending deliveries that go to the queue. */
export const COLUNAS_RETIRADA = 'id_loja, id_evento, evento, data, tentativas, posicao';

/**
 * Puts pending deliveries that will not be attempted (their store has no webhook any more) in
 * the queue, in the order their events occurred; `entregaFalhou` when an attempt had already failed.
 */
export async function enfileirarRetiradas(manager: EntityManager, retiradas: EntregaRetirada[]): Promise<void> {
  const emOrdem = [...retiradas].sort((a, b) => Number(a.posicao) - Number(b.posicao));
  await enfileirar(
    manager,
    emOrdem.map((entrega) => ({ idLoja: entrega.id_loja, idEvento: entrega.id_evento, evento: entrega.evento, data: entrega.data, entregaFalhou: entrega.tentativas > 0 })),
  );
}

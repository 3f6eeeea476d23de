import type { EntityManager } from 'typeorm';

export interface ItemParaFila {
  idLoja: number;
  idEvento: string;
  evento: string;
  data: object;
  entregaFalhou: boolean;
}

/** Puts events in their stores' queues; an event already queued once (even if since removed) is not queued again. */
export async function enfileirar(manager: EntityManager, itens: ItemParaFila[]): Promise<void> {
  if (itens.length === 0) return;
  await manager.query(
    `INSERT INTO fila (id_loja, id_evento, evento, data, entrega_falhou)
     SELECT * FROM unnest($1::int[], $2::uuid[], $3::text[], $4::json[], $5::boolean[])
     ON CONFLICT (id_evento) DO NOTHING`,
    [itens.map((i) => i.idLoja), itens.map((i) => i.idEvento), itens.map((i) => i.evento), itens.map((i) => JSON.stringify(i.data)), itens.map((i) => i.entregaFalhou)],
  );
}

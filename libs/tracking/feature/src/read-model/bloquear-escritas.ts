import type { EntityManager } from 'typeorm';

/**
 * Taken by every reset, before the rebuild reads anything (so before its snapshot): writers
 * that committed are in the snapshot, and writers still running wait and then apply their
 * events to the rebuilt tables. The order matches the order in which writers touch the tables.
 */
export async function bloquearEscritas(manager: EntityManager): Promise<void> {
  await manager.query(`LOCK TABLE pedidos, rastreios, rastreio_hashes, rastreio_codigos IN EXCLUSIVE MODE`);
}

import type { EntityManager } from 'typeorm';

/**
 * Taken by every reset, before the rebuild reads anything (so before its snapshot): writers
 * that committed are in the snapshot, and writers still running wait and then apply their
 * events to the rebuilt tables. The order is the one in which writers lock the tables
 * (PedidosProjection first; RastreiosProjection's statement locks its CTEs' tables before its
 * own), so the two never wait on each other in a cycle.
 */
export async function bloquearEscritas(manager: EntityManager): Promise<void> {
  await manager.query(`LOCK TABLE pedidos, rastreio_hashes, rastreio_codigos, rastreios IN EXCLUSIVE MODE`);
}

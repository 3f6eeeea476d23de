import { DataSource, type EntityManager } from 'typeorm';
import { pgPool, writeAtCommit, type PreparedStatement, type Statement } from '@trilha/event-store';

/** NOTIFY channel: a delivery became due now (a new event, or the next first attempt of a store). */
export const CANAL_ENTREGAS = 'delivery_entregas';

/** Advisory-lock class of a store's deliveries (the two-key form, so it meets no other lock). */
const TRAVA_LOJA = 5_171_001;

/**
 * Serialises the writers of one store's deliveries: the consumer that records a new event, the
 * dispatcher that ends a first attempt and makes the next one due, and the API (webhook
 * removal, resend). Always taken before any row of the store is locked, in ascending order.
 * In a consumer's transaction the lock travels with the writes sent at its COMMIT
 * (`writeAtCommit`), just before the writes that follow it there; anywhere else it is taken at once.
 */
export async function travarLojas(manager: EntityManager, idsLoja: number[]): Promise<void> {
  if (idsLoja.length > 0) {
    const { statement, params } = travaDasLojas(idsLoja);
    await writeAtCommit(manager, statement, params);
  }
}

// unnest yields the ids in the array's (ascending) order, so the locks are taken in it.
const TRAVA: PreparedStatement = { name: 'delivery_trava_das_lojas', text: `SELECT pg_advisory_xact_lock(${TRAVA_LOJA}, id) FROM unnest($1::int[]) AS id` };

/** `travarLojas`' statement, for a transaction that sends it with its BEGIN (`compactTransaction`). */
export function travaDasLojas(idsLoja: number[]): Statement {
  return { statement: TRAVA, params: [[...new Set(idsLoja)].sort((a, b) => a - b)] };
}

export async function avisarEntregas(manager: EntityManager): Promise<void> {
  await manager.query(`SELECT pg_notify($1, '')`, [CANAL_ENTREGAS]);
}

interface PgQueryable {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * Runs one of the statements every delivery goes through as a named prepared statement, so
 * PostgreSQL plans it once per connection instead of at every call (planning these CTEs costs
 * as much as running them). In a transaction's EntityManager it runs on the transaction's
 * connection; on the DataSource, on a connection of its pool as a transaction of its own.
 */
export async function consultaPreparada<T>(executor: EntityManager | DataSource, nome: string, sql: string, valores: unknown[]): Promise<T[]> {
  const queryable: PgQueryable = executor instanceof DataSource ? pgPool(executor) : await executor.queryRunner!.connect();
  const { rows } = await queryable.query({ name: `delivery.${nome}`, text: sql, values: valores });
  return rows as T[];
}

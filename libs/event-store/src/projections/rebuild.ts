import type { DataSource, EntityManager } from 'typeorm';
import { fromRow, type EventRow } from '../stored-event';
import type { Projection } from './projection';

const BATCH = 1000;

/**
 * How long one try waits for the projections' tables. Writers lock them in their own order (a
 * prepared statement's plan locks its target before the tables its CTEs write), so a writer may
 * hold one and wait for another the rebuild holds. Giving up well before PostgreSQL's
 * deadlock_timeout (1 s) ends such a wait from the rebuild's side: the writer goes on and is
 * never the one a deadlock aborts.
 */
const LOCK_WAIT_MS = 200;
const LOCK_NOT_AVAILABLE = '55P03';
const LOCK_TRIES = 100;

/**
 * Rebuilds projections from the event log in one transaction: readers keep seeing the old
 * read model until the new one commits. Writers are held back: the transaction first locks the
 * projections' tables against writes (EXCLUSIVE: reads go on), before it reads anything and so
 * before its snapshot is taken. A writer that committed before is in the snapshot and replayed;
 * one still running waits, then applies its events to the rebuilt tables. Nothing committed
 * during a rebuild is lost. Reports progress through `log`.
 */
export async function rebuildProjections(
  dataSource: DataSource,
  projections: Projection[],
  log: (line: string) => void,
): Promise<Record<string, number>> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await dataSource.transaction('REPEATABLE READ', (manager) => replay(manager, projections, log));
    } catch (error) {
      if ((error as { code?: string }).code !== LOCK_NOT_AVAILABLE || attempt >= LOCK_TRIES) throw error;
      log(`writers hold the read models' tables; trying again (${attempt}/${LOCK_TRIES})`);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * LOCK_WAIT_MS));
    }
  }
}

async function replay(manager: EntityManager, projections: Projection[], log: (line: string) => void): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const tables = projections.flatMap((projection) => projection.tables);
  await manager.query(`SET LOCAL lock_timeout = ${LOCK_WAIT_MS}; LOCK TABLE ${tables.join(', ')} IN EXCLUSIVE MODE; SET LOCAL lock_timeout TO DEFAULT`);
  for (const table of [...tables].reverse()) await manager.query(`DELETE FROM ${table}`);
  for (const projection of projections) counts[projection.name] = 0;
  const types = [...new Set(projections.flatMap((projection) => projection.handles))];
  const [{ total }] = await manager.query(`SELECT count(*)::int AS total FROM events WHERE type = ANY($1)`, [types]);
  let after = '0';
  let seen = 0;
  for (;;) {
    const rows: EventRow[] = await manager.query(
      `SELECT * FROM events WHERE type = ANY($1) AND global_position > $2 ORDER BY global_position LIMIT $3`,
      [types, after, BATCH],
    );
    if (rows.length === 0) break;
    for (const row of rows) {
      const event = fromRow(row);
      for (const projection of projections) {
        if (!projection.handles.includes(event.type)) continue;
        await projection.apply(manager, event);
        counts[projection.name] += 1;
      }
    }
    after = rows[rows.length - 1].global_position;
    seen += rows.length;
    log(`replayed ${seen}/${total} events`);
  }
  return counts;
}

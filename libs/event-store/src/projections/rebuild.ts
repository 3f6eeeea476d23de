import type { DataSource } from 'typeorm';
import { fromRow, type EventRow } from '../stored-event';
import type { Projection } from './projection';

const BATCH = 1000;

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
  const counts: Record<string, number> = {};
  await dataSource.transaction('REPEATABLE READ', async (manager) => {
    const tables = projections.flatMap((projection) => projection.tables);
    await manager.query(`LOCK TABLE ${tables.join(', ')} IN EXCLUSIVE MODE`);
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
  });
  return counts;
}

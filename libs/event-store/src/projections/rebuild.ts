import type { DataSource } from 'typeorm';
import { fromRow, type EventRow } from '../stored-event';
import type { Projection } from './projection';

const BATCH = 1000;

/**
 * Rebuilds projections from the event log in one transaction: readers keep seeing the old
 * read model until the new one commits. Reports progress through `log`.
 */
export async function rebuildProjections(
  dataSource: DataSource,
  projections: Projection[],
  log: (line: string) => void,
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  await dataSource.transaction('REPEATABLE READ', async (manager) => {
    for (const projection of projections) {
      await projection.reset(manager);
      counts[projection.name] = 0;
    }
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

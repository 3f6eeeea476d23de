import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Storage for a table every tracking event rewrites a row of (its order's record, ≈ 2 kB
 * compressed, a third of a page):
 * - pages filled to half leave room for the new version beside the old one, so the update is
 *   HOT: no new entry in the table's three indexes, and the old version is pruned on its page
 *   rather than by a vacuum's index scans. Existing rows move to roomier pages as they change;
 * - autovacuum (and its analyze) pauses 10 ms, not 2, after each slice of work on it: the same
 *   work spread over a few seconds instead of a burst of half a core that requests queue behind.
 */
export class RastreiosArmazenamento1732000000330 implements MigrationInterface {
  name = 'RastreiosArmazenamento1732000000330';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE rastreios SET (fillfactor = 50, autovacuum_vacuum_cost_delay = 10)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE rastreios RESET (fillfactor, autovacuum_vacuum_cost_delay)`);
  }
}

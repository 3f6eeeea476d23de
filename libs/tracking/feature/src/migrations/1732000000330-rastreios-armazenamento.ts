import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every tracking event rewrites its order's record, and a record (≈ 2 kB, compressed) fills a
 * third of a page. Pages filled to half leave room for the new version beside the old one, so
 * the update is HOT: no new entry in the table's three indexes, and the old version is pruned
 * on the page instead of waiting for a vacuum's index scans. Existing rows move to roomier
 * pages as they are next updated.
 */
export class RastreiosFillfactor1732000000330 implements MigrationInterface {
  name = 'RastreiosFillfactor1732000000330';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE rastreios SET (fillfactor = 50)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE rastreios RESET (fillfactor)`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `rastreios.estado` (the record's fold state) is not written: the record is folded from
 * the stream a command reads, and the public page is rendered from `documento`. The column only
 * stops being required here, because this migration runs (a pre-upgrade Job) while replicas of
 * the previous release, which still write it, serve; the next release drops it.
 */
export class RastreiosSemEstado1732000000320 implements MigrationInterface {
  name = 'RastreiosSemEstado1732000000320';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE rastreios ALTER COLUMN estado DROP NOT NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    // Rows written by this release have no state; the previous one never reads it.
    await runner.query(`UPDATE rastreios SET estado = '{}'::jsonb WHERE estado IS NULL`);
    await runner.query(`ALTER TABLE rastreios ALTER COLUMN estado SET NOT NULL`);
  }
}

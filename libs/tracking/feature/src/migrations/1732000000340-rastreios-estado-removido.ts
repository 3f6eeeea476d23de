import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Drops `rastreios.estado`, which nothing has read or written since RastreiosSemEstado (the
 * previous release): no replica that still wrote it can be serving while this one migrates.
 * PostgreSQL only marks the column dropped; rows lose it as they are rewritten.
 */
export class RastreiosEstadoRemovido1732000000340 implements MigrationInterface {
  name = 'RastreiosEstadoRemovido1732000000340';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE rastreios DROP COLUMN estado`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE rastreios ADD COLUMN estado jsonb COMPRESSION lz4`);
  }
}

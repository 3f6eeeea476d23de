import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The tracking records (≈ 5 kB of JSON each, twice per row) are compressed with lz4 instead
 * of PostgreSQL's default pglz: every tracking event rewrites them and every read
 * decompresses one, and lz4 does both several times faster. Values written before keep their
 * compression until rewritten.
 */
export class RastreiosLz41732000000310 implements MigrationInterface {
  name = 'RastreiosLz41732000000310';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE rastreios ALTER COLUMN estado SET COMPRESSION lz4, ALTER COLUMN documento SET COMPRESSION lz4`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE rastreios ALTER COLUMN estado SET COMPRESSION pglz, ALTER COLUMN documento SET COMPRESSION pglz`);
  }
}

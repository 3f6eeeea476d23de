import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The answers kept for requests that carried an `Idempotency-Key`: one row per store and key,
 * written in the transaction of the command that answered (`keepAnswer`), kept at least a day.
 */
export class IdempotencyKeys1732000000500 implements MigrationInterface {
  name = 'IdempotencyKeys1732000000500';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE idempotency_keys (
        id_loja     integer     NOT NULL,
        key         text        NOT NULL,
        fingerprint text        NOT NULL,
        body        jsonb       NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (id_loja, key)
      )`);
    await runner.query(`CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE idempotency_keys`);
  }
}

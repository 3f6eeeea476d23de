import { MigrationInterface, QueryRunner } from 'typeorm';

/** The gateway's read model of stores, kept by LojasProjection, and the store id sequence. */
export class Lojas1732000000100 implements MigrationInterface {
  name = 'Lojas1732000000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE SEQUENCE loja_id_seq`);
    await runner.query(`
      CREATE TABLE lojas (
        id_loja                integer     PRIMARY KEY,
        nome                   text        NOT NULL,
        codigo_hash            text        NOT NULL UNIQUE,
        ativa                  boolean     NOT NULL,
        tokens_revogados_antes timestamptz,
        criada_em              timestamptz NOT NULL,
        atualizada_em          timestamptz NOT NULL
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE lojas`);
    await runner.query(`DROP SEQUENCE loja_id_seq`);
  }
}

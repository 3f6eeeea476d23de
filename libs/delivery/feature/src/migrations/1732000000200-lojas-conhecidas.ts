import { MigrationInterface, QueryRunner } from 'typeorm';

export class LojasConhecidas1732000000200 implements MigrationInterface {
  name = 'LojasConhecidas1732000000200';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE lojas (
        id_loja                 integer     PRIMARY KEY,
        nome                    text        NOT NULL,
        ativa                   boolean     NOT NULL,
        aplicativo_removido_em  timestamptz,
        atualizada_em           timestamptz NOT NULL
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE lojas`);
  }
}

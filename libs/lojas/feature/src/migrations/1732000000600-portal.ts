import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The store portal's links and sessions. Both are credentials: only the SHA-256 of their secret
 * is kept, never the secret. Expired rows are deleted a day after they expire
 * (CredenciaisPortalExpiradas), so a late request is still told that its link or session expired.
 */
export class Portal1732000000600 implements MigrationInterface {
  name = 'Portal1732000000600';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE portal_links (
        hash       text        PRIMARY KEY,
        id_loja    integer     NOT NULL,
        capacidade text        NOT NULL,
        duracao    integer     NOT NULL,
        criado_em  timestamptz NOT NULL,
        expira_em  timestamptz NOT NULL,
        usado_em   timestamptz
      )`);
    await runner.query(`CREATE INDEX portal_links_expira_em ON portal_links (expira_em)`);
    await runner.query(`
      CREATE TABLE portal_sessoes (
        hash          text        PRIMARY KEY,
        id_loja       integer     NOT NULL,
        capacidade    text        NOT NULL,
        autorizada_em timestamptz NOT NULL,
        criada_em     timestamptz NOT NULL,
        expira_em     timestamptz NOT NULL
      )`);
    await runner.query(`CREATE INDEX portal_sessoes_id_loja ON portal_sessoes (id_loja)`);
    await runner.query(`CREATE INDEX portal_sessoes_expira_em ON portal_sessoes (expira_em)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE portal_sessoes`);
    await runner.query(`DROP TABLE portal_links`);
  }
}

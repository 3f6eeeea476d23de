import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What each attempt sent and got back, for an attempt's detail (GET /webhook/entregas/{idEntrega}):
 * the URL, the request's headers as sent (the signature included) and the first 2 KB of the
 * receiver's answer. The body is not kept per attempt: every attempt of a delivery sends the same
 * one, made again from the delivery's event by the function the dispatcher sends it with
 * (`corpoNotificacao`). Attempts recorded before this migration have them null; nullable
 * columns without a default are added without rewriting the table.
 */
export class TentativasRequisicaoResposta1732000000510 implements MigrationInterface {
  name = 'TentativasRequisicaoResposta1732000000510';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE tentativas ADD COLUMN url text, ADD COLUMN cabecalhos jsonb, ADD COLUMN resposta text`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE tentativas DROP COLUMN url, DROP COLUMN cabecalhos, DROP COLUMN resposta`);
  }
}

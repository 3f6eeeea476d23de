import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The span of a delivery's first attempt (its W3C `traceparent`), recorded with the attempt's
 * outcome: each later attempt's span links to it, so a trace shows the retries as retries of
 * that first attempt.
 */
export class EntregasTraceparentPrimeira1732000000420 implements MigrationInterface {
  name = 'EntregasTraceparentPrimeira1732000000420';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE entregas ADD COLUMN traceparent_primeira text`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE entregas DROP COLUMN traceparent_primeira`);
  }
}

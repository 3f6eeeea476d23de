import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook operations: deactivation (410 Gone, or every attempt failed for WEBHOOK_DISABLE_AFTER),
 * secret rotation with an overlap, endpoint health, and bulk recovery.
 *
 * - `webhooks.ativo` false: nothing is sent; the store's events go to the queue with
 *   `entregaFalhou` until it registers again or reactivates the webhook.
 * - `segredo_anterior` signs beside `segredo` until `segredo_anterior_ate`.
 * - The health columns are kept by the dispatcher as it records attempts, and
 *   `tentativas_por_hora` counts them by the hour, so GET /webhook reads at most 25 small rows
 *   instead of the attempt log.
 * - `entregas.recuperar`: the delivery is in a bulk recovery; those of a store are attempted one
 *   at a time in the order their events occurred (the next is made due when one ends).
 */
export class WebhooksSaudeRotacaoRecuperacao1732000000410 implements MigrationInterface {
  name = 'WebhooksSaudeRotacaoRecuperacao1732000000410';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE webhooks
        ADD COLUMN ativo                boolean     NOT NULL DEFAULT true,
        ADD COLUMN motivo_desativacao   text,
        ADD COLUMN desativado_em        timestamptz,
        ADD COLUMN segredo_anterior     text,
        ADD COLUMN segredo_anterior_ate timestamptz,
        ADD COLUMN ultima_entrega       timestamptz,
        ADD COLUMN ultima_falha         timestamptz,
        ADD COLUMN ultimo_erro          text,
        ADD COLUMN falhas_seguidas      integer     NOT NULL DEFAULT 0,
        ADD COLUMN falhando_desde       timestamptz`);
    await runner.query(`
      CREATE TABLE tentativas_por_hora (
        id_loja   integer     NOT NULL,
        hora      timestamptz NOT NULL,
        sucessos  integer     NOT NULL,
        falhas    integer     NOT NULL,
        PRIMARY KEY (id_loja, hora)
      )`);
    await runner.query(`ALTER TABLE entregas ADD COLUMN recuperar boolean NOT NULL DEFAULT false`);
    await runner.query(`CREATE INDEX entregas_recuperacao ON entregas (id_loja, posicao) WHERE recuperar`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX entregas_recuperacao`);
    await runner.query(`ALTER TABLE entregas DROP COLUMN recuperar`);
    await runner.query(`DROP TABLE tentativas_por_hora`);
    await runner.query(`
      ALTER TABLE webhooks
        DROP COLUMN ativo, DROP COLUMN motivo_desativacao, DROP COLUMN desativado_em, DROP COLUMN segredo_anterior,
        DROP COLUMN segredo_anterior_ate, DROP COLUMN ultima_entrega, DROP COLUMN ultima_falha, DROP COLUMN ultimo_erro,
        DROP COLUMN falhas_seguidas, DROP COLUMN falhando_desde`);
  }
}

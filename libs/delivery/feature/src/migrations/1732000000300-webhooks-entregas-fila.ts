import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook registrations, deliveries with their attempts, and the per-store queue.
 *
 * `entregas.proxima_em` is the one clock of delivery: a row is due when it is not null and in
 * the past. A dispatcher claims due rows by setting it to the end of a lease, so a claim that
 * dies with its replica becomes due again by itself; ending the attempt sets it to the next
 * retry, or to null when nothing is left to send. A store's later first attempts wait with a
 * null `proxima_em` until the earlier one has been made (`entregas_primeiras`).
 *
 * Every index of `entregas` is paid for twice per delivery (claim and outcome change
 * `proxima_em`, so no update is HOT): it has only the ones its queries need. An event is
 * recorded once by the consumer's inbox, so `id_evento` needs no unique index there; the queue
 * keeps one, so an event is never queued twice.
 */
export class WebhooksEntregasFila1732000000300 implements MigrationInterface {
  name = 'WebhooksEntregasFila1732000000300';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE webhooks (
        id_loja     integer     PRIMARY KEY,
        id_webhook  uuid        NOT NULL,
        url         text        NOT NULL,
        eventos     jsonb       NOT NULL,
        segredo     text        NOT NULL,
        criado_em   timestamptz NOT NULL
      )`);
    await runner.query(`
      CREATE TABLE entregas (
        id_entrega        uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
        posicao           bigserial   NOT NULL,
        id_loja           integer     NOT NULL,
        id_evento         uuid        NOT NULL,
        evento            text        NOT NULL,
        data              json        NOT NULL,
        traceparent       text,
        ocorrido_em       timestamptz NOT NULL,
        status            text        NOT NULL DEFAULT 'pendente' CHECK (status IN ('pendente', 'entregue', 'falhou')),
        tentativas        smallint    NOT NULL DEFAULT 0,
        numero_tentativas smallint    NOT NULL DEFAULT 0,
        manual            boolean     NOT NULL DEFAULT false,
        proxima_em        timestamptz,
        lease             uuid
      )`);
    await runner.query(`CREATE INDEX entregas_devidas ON entregas (proxima_em) WHERE proxima_em IS NOT NULL`);
    await runner.query(`CREATE INDEX entregas_primeiras ON entregas (id_loja, posicao) WHERE status = 'pendente' AND tentativas = 0`);
    await runner.query(`CREATE INDEX entregas_da_loja ON entregas (id_loja, posicao)`);
    await runner.query(`
      CREATE TABLE tentativas (
        id_entrega   uuid        NOT NULL REFERENCES entregas ON DELETE CASCADE,
        numero       smallint    NOT NULL,
        data_hora    timestamptz NOT NULL,
        status_http  smallint,
        duracao_ms   integer     NOT NULL,
        erro         text,
        PRIMARY KEY (id_entrega, numero)
      )`);
    await runner.query(`
      CREATE TABLE fila (
        id_documento   uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
        posicao        bigserial   NOT NULL,
        id_loja        integer     NOT NULL,
        id_evento      uuid        NOT NULL UNIQUE,
        evento         text        NOT NULL,
        data           json        NOT NULL,
        data_criacao   timestamptz NOT NULL DEFAULT clock_timestamp(),
        entrega_falhou boolean     NOT NULL,
        removido_em    timestamptz
      )`);
    // A store's pending items, oldest first: GET /fila/lista reads (and counts) only these.
    await runner.query(`CREATE INDEX fila_pendentes ON fila (id_loja, posicao) WHERE removido_em IS NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE fila`);
    await runner.query(`DROP TABLE tentativas`);
    await runner.query(`DROP TABLE entregas`);
    await runner.query(`DROP TABLE webhooks`);
  }
}

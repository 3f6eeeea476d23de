import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Kafka messages a consumer of the service could not handle, kept for an operator to see and
 * replay (`main.js parked list|replay`). One row per consumer and message: a message Kafka
 * delivers again after a crash is parked once. The value is kept as the bytes that were read,
 * whatever they were (invalid JSON, a NUL character).
 */
export class ParkedMessages1732000000400 implements MigrationInterface {
  name = 'ParkedMessages1732000000400';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE parked_messages (
        id          bigserial   PRIMARY KEY,
        consumer    text        NOT NULL,
        topic       text        NOT NULL,
        partition   integer     NOT NULL,
        "offset"    bigint      NOT NULL,
        message_key text,
        headers     jsonb       NOT NULL,
        value       bytea,
        reason      text        NOT NULL,
        trace_id    text,
        parked_at   timestamptz NOT NULL DEFAULT now(),
        replayed_at timestamptz,
        UNIQUE (consumer, topic, partition, "offset")
      )`);
    await runner.query(`CREATE INDEX parked_messages_waiting ON parked_messages (id) WHERE replayed_at IS NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE parked_messages`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The event store, outbox and inbox of one service, created in that service's schema
 * (the connection's search_path). Modelled on emmett's PostgreSQL event store.
 */
export class EventStoreTables1732000000000 implements MigrationInterface {
  name = 'EventStoreTables1732000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE events (
        global_position bigserial PRIMARY KEY,
        stream_id       text        NOT NULL,
        stream_version  integer     NOT NULL,
        event_id        uuid        NOT NULL UNIQUE,
        type            text        NOT NULL,
        schema_version  integer     NOT NULL,
        data            jsonb       NOT NULL,
        id_loja         integer     NOT NULL,
        correlation_id  text        NOT NULL,
        causation_id    text,
        traceparent     text,
        occurred_at     timestamptz NOT NULL,
        transaction_id  xid8        NOT NULL DEFAULT pg_current_xact_id(),
        UNIQUE (stream_id, stream_version)
      )`);
    await runner.query(`CREATE INDEX events_type_position ON events (type, global_position)`);
    await runner.query(`
      CREATE TABLE outbox (
        position    bigserial   PRIMARY KEY,
        topic       text        NOT NULL,
        message_key text        NOT NULL,
        envelope    jsonb       NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await runner.query(`
      CREATE TABLE inbox (
        consumer     text        NOT NULL,
        event_id     uuid        NOT NULL,
        processed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (consumer, event_id)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE inbox`);
    await runner.query(`DROP TABLE outbox`);
    await runner.query(`DROP TABLE events`);
  }
}

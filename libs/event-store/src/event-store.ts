import { randomUUID } from 'node:crypto';
import { escapeLiteral, type PoolClient, type QueryResult } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import { currentTraceparent, requestContext } from '@trilha/observability';
import { fromRow, type DomainEvent, type EventRow, type StoredEvent } from './stored-event';
import type { Projection } from './projections/projection';

/** Another writer appended to the stream since it was read. */
export class ConcurrencyError extends Error {
  constructor(readonly streamId: string, readonly expectedVersion: number) {
    super(`stream ${streamId} moved past version ${expectedVersion}`);
  }
}

/**
 * Where an event goes on Kafka, if anywhere: its topic and the payload consumers see
 * (which may leave out what only the owning service needs). `null` keeps it private.
 */
export type OutboxRouting = (event: DomainEvent) => { topic: string; data: object } | null;

export interface AppendOptions {
  idLoja: number;
  /** The stream as the writer read it, if it did: passed on to the inline projections. */
  history?: readonly StoredEvent[];
  /** Defaults to the current request's or message's context. */
  correlationId?: string;
  causationId?: string | null;
}

const UNIQUE_VIOLATION = '23505';

/**
 * A stream's events in order. The id is written in as a literal so that the statement needs no
 * parameters and can share a message with others (PostgreSQL's simple protocol).
 */
const readStreamSql = (streamId: string) => `SELECT * FROM events WHERE stream_id = ${escapeLiteral(streamId)} ORDER BY stream_version`;

/**
 * Append-only event log of one service. An append checks the stream's version (optimistic
 * concurrency), writes the outgoing messages to the outbox and updates the inline
 * projections, all in the caller's transaction.
 */
export class EventStore {
  /** Transactions that wrote to the outbox and have not committed yet. */
  private readonly outboxWriters = new WeakSet<EntityManager>();
  private readonly outboxListeners: (() => void)[] = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly routing: OutboxRouting,
    private readonly projections: Projection[],
  ) {}

  async readStream(streamId: string, manager: EntityManager = this.dataSource.manager): Promise<StoredEvent[]> {
    const rows: EventRow[] = await manager.query(readStreamSql(streamId));
    return rows.map(fromRow);
  }

  /**
   * Runs `work` in a transaction; appends made through it commit or roll back together. When
   * it committed outbox messages, the `onOutboxCommit` listeners hear of it right after.
   * Given a stream, the transaction opens by reading it — in the same message as BEGIN, one
   * round trip for both — and `work` gets its events.
   */
  async transaction<T>(work: (manager: EntityManager, stream: StoredEvent[]) => Promise<T>, streamId?: string): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    let connection: PoolClient | undefined;
    try {
      connection = (await runner.connect()) as PoolClient;
      let stream: StoredEvent[] = [];
      if (streamId === undefined) await connection.query('BEGIN');
      else {
        const [, read] = (await connection.query(`BEGIN; ${readStreamSql(streamId)}`)) as unknown as QueryResult<EventRow>[];
        stream = read.rows.map(fromRow);
      }
      const value = await work(runner.manager, stream);
      const wroteOutbox = this.outboxWriters.has(runner.manager);
      await connection.query('COMMIT');
      if (wroteOutbox) for (const listener of this.outboxListeners) listener();
      return value;
    } catch (error) {
      await connection?.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
  }

  /** Calls `listener` after every commit that wrote to the outbox (the relay's wake-up). */
  onOutboxCommit(listener: () => void): void {
    this.outboxListeners.push(listener);
  }

  /**
   * Appends to a stream inside `manager`'s transaction, which should come from `transaction`:
   * the outbox messages of any other transaction wait for the relay's next poll.
   */
  async append(
    manager: EntityManager,
    streamId: string,
    expectedVersion: number,
    events: DomainEvent[],
    options: AppendOptions,
  ): Promise<StoredEvent[]> {
    const context = requestContext.get();
    const correlationId = options.correlationId ?? context?.correlationId ?? randomUUID();
    const causationId = options.causationId !== undefined ? options.causationId : (context?.causationId ?? null);
    const traceparent = currentTraceparent();
    const stored: StoredEvent[] = [];
    for (const [index, event] of events.entries()) {
      const route = this.routing(event);
      let rows: EventRow[];
      try {
        // One round trip: the event and, if it leaves the service, its outbox message. The
        // message is the envelope as the event row has it (PostgreSQL's clock for occurredAt,
        // in JavaScript's ISO form), with the data the routing chose.
        rows = await manager.query(
          `WITH stored AS (
             INSERT INTO events (stream_id, stream_version, event_id, type, schema_version, data, id_loja,
                                 correlation_id, causation_id, traceparent, occurred_at)
             VALUES ($1, $2, $3, $4, 1, $5, $6, $7, $8, $9, clock_timestamp())
             RETURNING *
           ), queued AS (
             INSERT INTO outbox (topic, message_key, envelope)
             SELECT $10::text, id_loja::text, jsonb_build_object(
                      'id', event_id, 'type', type, 'schemaVersion', schema_version,
                      'occurredAt', to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                      'idLoja', id_loja, 'correlationId', correlation_id, 'causationId', causation_id,
                      'traceparent', traceparent, 'data', $11::jsonb)
             FROM stored WHERE $10::text IS NOT NULL
           )
           SELECT * FROM stored`,
          [streamId, expectedVersion + index + 1, randomUUID(), event.type, event.data, options.idLoja,
            correlationId, causationId, traceparent, route?.topic ?? null, route ? JSON.stringify(route.data) : null],
        );
      } catch (error) {
        if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw new ConcurrencyError(streamId, expectedVersion);
        throw error;
      }
      if (route) this.outboxWriters.add(manager);
      stored.push(fromRow(rows[0]));
    }
    for (const [index, event] of stored.entries()) {
      const stream = options.history && [...options.history, ...stored.slice(0, index)];
      for (const projection of this.projections) {
        if (projection.handles.includes(event.type)) await projection.apply(manager, event, stream);
      }
    }
    return stored;
  }
}

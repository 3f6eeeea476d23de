import { randomUUID } from 'node:crypto';
import { escapeLiteral, type PoolClient, type QueryResult } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import { trace } from '@opentelemetry/api';
import { ATTR_ID_LOJA, currentTraceparent, requestContext, withSpanFrom } from '@trilha/observability';
import { fromRow, type AppendedEvent, type DomainEvent, type EventRow, type StoredEvent } from './stored-event';
import type { Projection } from './projections/projection';

/** Another writer appended to the stream since it was read. */
export class ConcurrencyError extends Error {
  constructor(detail: string) {
    super(`another writer appended to the stream first (${detail})`);
  }
}

/**
 * Where an event goes on Kafka, if anywhere: its topic, the payload consumers see (which may
 * leave out what only the owning service needs) and the `schemaVersion` of that payload (its
 * contract's newest, `schemaVersionWritten`). `null` keeps it private.
 */
export type OutboxRouting = (event: DomainEvent) => { topic: string; schemaVersion: number; data: object } | null;

export interface AppendOptions {
  idLoja: number;
  /** The stream as the writer read it, if it did: passed on to the inline projections. */
  history?: readonly StoredEvent[];
  /** Defaults to the current request's or message's context. */
  correlationId?: string;
  causationId?: string | null;
}

const UNIQUE_VIOLATION = '23505';
/** PostgreSQL's name for the events table's UNIQUE (stream_id, stream_version) (the event store's migration). */
const STREAM_VERSION_KEY = 'events_stream_id_stream_version_key';

/**
 * A violation of the events' unique (stream_id, stream_version) means another writer appended
 * to the stream since it was read; any other error passes through.
 */
function asConcurrencyError(error: unknown): unknown {
  const { code, constraint, detail } = error as { code?: string; constraint?: string; detail?: string };
  return code === UNIQUE_VIOLATION && constraint === STREAM_VERSION_KEY ? new ConcurrencyError(detail ?? constraint) : error;
}

/**
 * An event and, if it leaves the service, its outbox message, in one statement. The message is
 * the envelope as the event row has it (PostgreSQL's clock for occurredAt, in JavaScript's ISO
 * form), with the data and the schema version the routing chose: the stored event is the
 * service's own, the message the topic's contract.
 */
const APPEND_SQL = `
  WITH stored AS (
    INSERT INTO events (stream_id, stream_version, event_id, type, schema_version, data, id_loja,
                        correlation_id, causation_id, traceparent, occurred_at)
    VALUES ($1, $2, $3, $4, 1, $5, $6, $7, $8, $9, clock_timestamp())
    RETURNING *
  )
  INSERT INTO outbox (topic, message_key, envelope)
  SELECT $10::text, id_loja::text, jsonb_build_object(
           'id', event_id, 'type', type, 'schemaVersion', $12::int,
           'occurredAt', to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'idLoja', id_loja, 'correlationId', correlation_id, 'causationId', causation_id,
           'traceparent', traceparent, 'data', $11::jsonb)
  FROM stored WHERE $10::text IS NOT NULL`;

/**
 * A stream's events in order, or those before a version. The id is written in as a literal so
 * that the statement needs no parameters and can share a message with others (PostgreSQL's
 * simple protocol).
 */
const readStreamSql = (streamId: string, beforeVersion?: number) =>
  `SELECT * FROM events WHERE stream_id = ${escapeLiteral(streamId)}` +
  `${beforeVersion === undefined ? '' : ` AND stream_version < ${Math.trunc(beforeVersion)}`} ORDER BY stream_version`;

/**
 * The events of `event`'s stream before it, in order: what a command had read before appending
 * it, for a projection that folds the stream when it is not handed it (a rebuild).
 */
export async function streamBefore(manager: EntityManager, event: AppendedEvent): Promise<StoredEvent[]> {
  const rows: EventRow[] = await manager.query(readStreamSql(event.streamId, event.streamVersion));
  return rows.map(fromRow);
}

/** A parameter written into a statement as a literal (see `inlineParameters`). */
type Literal = string | number | boolean | Date | readonly string[] | null | undefined;

function literal(value: Literal): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`cannot write ${value} into a statement`);
    return String(value);
  }
  if (value instanceof Date) return escapeLiteral(value.toISOString());
  if (typeof value === 'string') return escapeLiteral(value);
  // An array's text form, as pg sends a parameter: {"a","b"}, each element quoted.
  if (Array.isArray(value)) return escapeLiteral(`{${value.map((item: string) => `"${item.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`);
  throw new TypeError(`cannot write a ${typeof value} into a statement`);
}

/**
 * The statement with its `$n` parameters written in as literals, for PostgreSQL's simple
 * protocol. For our own statements only: their text has no `$` but the parameters'. A quoted
 * literal takes its type from where it stands, as an untyped parameter does.
 */
export function inlineParameters(sql: string, params: readonly Literal[]): string {
  return sql.replace(/\$(\d+)/g, (_, n: string) => {
    if (Number(n) > params.length) throw new RangeError(`statement names $${n}, but ${params.length} parameters were given`);
    return literal(params[Number(n) - 1]);
  });
}

/** Statements `holdingWritesAtCommit` holds for its caller to send, by the manager they were written through. */
const writesAtCommit = new WeakMap<EntityManager, string[]>();

/**
 * Runs a write whose result nothing reads: inside an `EventStore.transaction` it is sent with
 * the COMMIT, in the same message (one round trip fewer per write), and in an idempotent
 * message handler with the other messages' writes (`MessageConsumer`); elsewhere (a rebuild,
 * a plain transaction) at once. Its error, if any, then fails the commit, which rolls back.
 */
export async function writeAtCommit(manager: EntityManager, sql: string, params: readonly Literal[]): Promise<void> {
  const pending = writesAtCommit.get(manager);
  if (pending) pending.push(inlineParameters(sql, params));
  else await manager.query(sql, params as unknown[]);
}

/**
 * Runs `work`, holding the statements it writes through `manager` with `writeAtCommit`, and
 * returns them for the caller to send (with its COMMIT, or with other messages' writes).
 */
export async function holdingWritesAtCommit<T>(manager: EntityManager, work: () => Promise<T>): Promise<{ value: T; writes: string[] }> {
  const writes: string[] = [];
  writesAtCommit.set(manager, writes);
  try {
    return { value: await work(), writes };
  } finally {
    writesAtCommit.delete(manager);
  }
}

/**
 * Append-only event log of one service. An append writes the events and their outgoing
 * messages (the outbox) and updates the inline projections, all in the caller's transaction;
 * the stream's version is checked as it commits (optimistic concurrency).
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
   * round trip for both — and `work` gets its events. Writes made with `writeAtCommit` travel
   * with the COMMIT.
   *
   * It is the command's span (`append <event types>` once it appended): the events it writes
   * carry that span's `traceparent`, so the relay's publishing continues from it.
   */
  transaction<T>(work: (manager: EntityManager, stream: StoredEvent[]) => Promise<T>, streamId?: string): Promise<T> {
    const idLoja = requestContext.get()?.idLoja;
    const attributes = { 'db.system.name': 'postgresql', ...(idLoja !== undefined && { [ATTR_ID_LOJA]: idLoja }) };
    return withSpanFrom('command', 'active', { kind: 'internal', attributes }, () => this.inTransaction(work, streamId));
  }

  private async inTransaction<T>(work: (manager: EntityManager, stream: StoredEvent[]) => Promise<T>, streamId?: string): Promise<T> {
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
      const { value, writes } = await holdingWritesAtCommit(runner.manager, () => work(runner.manager, stream));
      const wroteOutbox = this.outboxWriters.has(runner.manager);
      await connection.query([...writes, 'COMMIT'].join(';\n'));
      if (wroteOutbox) for (const listener of this.outboxListeners) listener();
      return value;
    } catch (error) {
      await connection?.query('ROLLBACK').catch(() => undefined);
      throw asConcurrencyError(error);
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
   * the outbox messages of any other transaction wait for the relay's next poll. The events
   * are written with `writeAtCommit`, so a stream another writer has moved past fails the
   * COMMIT with a `ConcurrencyError`; an inline projection reads nothing they wrote.
   */
  async append(
    manager: EntityManager,
    streamId: string,
    expectedVersion: number,
    events: DomainEvent[],
    options: AppendOptions,
  ): Promise<AppendedEvent[]> {
    const context = requestContext.get();
    const correlationId = options.correlationId ?? context?.correlationId ?? randomUUID();
    const causationId = options.causationId !== undefined ? options.causationId : (context?.causationId ?? null);
    const traceparent = currentTraceparent();
    trace.getActiveSpan()?.updateName(`append ${[...new Set(events.map((event) => event.type))].join(',')}`).setAttribute(ATTR_ID_LOJA, options.idLoja);
    const appended: AppendedEvent[] = [];
    for (const [index, { type, data }] of events.entries()) {
      const event: AppendedEvent = { id: randomUUID(), type, schemaVersion: 1, idLoja: options.idLoja, correlationId, causationId, traceparent, data, streamId, streamVersion: expectedVersion + index + 1 };
      const route = this.routing(event);
      try {
        await writeAtCommit(manager, APPEND_SQL, [streamId, event.streamVersion, event.id, type, JSON.stringify(data), options.idLoja,
          correlationId, causationId, traceparent, route?.topic ?? null, route ? JSON.stringify(route.data) : null, route?.schemaVersion ?? null]);
      } catch (error) {
        throw asConcurrencyError(error);
      }
      if (route) this.outboxWriters.add(manager);
      appended.push(event);
    }
    for (const [index, event] of appended.entries()) {
      const stream = options.history && [...options.history, ...appended.slice(0, index)];
      for (const projection of this.projections) {
        if (projection.handles.includes(event.type)) await projection.apply(manager, event, stream);
      }
    }
    return appended;
  }
}

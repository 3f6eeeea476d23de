import type { DataSource, EntityManager } from 'typeorm';
import { trace } from '@opentelemetry/api';
import { novoId } from '@trilha/ids';
import { ATTR_ID_LOJA, currentTraceparent, requestContext, withSpanFrom } from '@trilha/observability';
import { compactTransaction, writeAtCommit, type Opening, type PreparedStatement, type Statement } from './compact-transaction';
import { fromRow, type AppendedEvent, type DomainEvent, type EventRow, type StoredEvent } from './stored-event';
import type { Projection } from './projections/projection';

/** Another writer appended to the stream since it was read. */
export class ConcurrencyError extends Error {
  constructor(detail: string) {
    super(`another writer appended to the stream first (${detail})`);
  }
}

/**
 * One message of an event on Kafka: its topic, the payload that topic's consumers see (which
 * may leave out what only the owning service needs) and the `schemaVersion` of that payload
 * (its contract's newest, `schemaVersionWritten`).
 */
export interface OutboxMessage {
  topic: string;
  schemaVersion: number;
  data: object;
}

/**
 * Where an event goes on Kafka: one message per topic (several while a topic's consumers move
 * from one version to the next, `x.v1` and `x.v2` side by side), none to keep it private. It is
 * the context's adapter from its domain events to its topics' contracts.
 */
export type OutboxRouting<E extends DomainEvent = DomainEvent> = (event: AppendedEvent<E>) => readonly OutboxMessage[];

export interface AppendOptions<E extends DomainEvent = DomainEvent> {
  idLoja: number;
  /** The stream as the writer read it, if it did: passed on to the inline projections. */
  history?: readonly AppendedEvent<E>[];
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
 * An event and its outbox messages (one per topic the routing chose, `$10`: a JSON array of
 * `{topic, schemaVersion, data}`, empty for a private event), in one statement. Each message is
 * the envelope as the event row has it (PostgreSQL's clock for occurredAt, in JavaScript's ISO
 * form), with the data and the schema version of its topic: the stored event is the service's
 * own, the message the topic's contract.
 */
const APPEND: PreparedStatement = {
  name: 'trilha_append',
  text: `
  WITH stored AS (
    INSERT INTO events (stream_id, stream_version, event_id, type, schema_version, data, id_loja,
                        correlation_id, causation_id, traceparent, occurred_at)
    VALUES ($1, $2, $3, $4, 1, $5, $6, $7, $8, $9, clock_timestamp())
    RETURNING *
  )
  INSERT INTO outbox (topic, message_key, envelope)
  SELECT route.message->>'topic', id_loja::text, jsonb_build_object(
           'id', event_id, 'type', type, 'schemaVersion', (route.message->>'schemaVersion')::int,
           'occurredAt', to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'idLoja', id_loja, 'correlationId', correlation_id, 'causationId', causation_id,
           'traceparent', traceparent, 'data', route.message->'data')
  FROM stored, jsonb_array_elements($10::jsonb) WITH ORDINALITY AS route(message, position)
  ORDER BY route.position`,
};

/**
 * An `EventRow`'s columns, named: a prepared statement's result may not change its columns
 * (PostgreSQL refuses "cached plan must not change result type"), and a later migration may add
 * one to the table.
 */
const EVENT_COLUMNS = 'global_position, stream_id, stream_version, event_id, type, schema_version, data, id_loja, correlation_id, causation_id, traceparent, occurred_at';

/** A stream's events in order: what a command reads with its BEGIN. */
const READ_STREAM: PreparedStatement = { name: 'trilha_read_stream', text: `SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = $1::text ORDER BY stream_version` };
/** A stream's events of some types ($2) and its last event, in order: what a command whose decision folds only those reads. */
const READ_STREAM_OF_TYPES: PreparedStatement = {
  name: 'trilha_read_stream_of_types',
  text: `SELECT ${EVENT_COLUMNS} FROM events
         WHERE stream_id = $1::text
           AND (type = ANY($2::text[]) OR stream_version = (SELECT max(stream_version) FROM events WHERE stream_id = $1::text))
         ORDER BY stream_version`,
};

/** The statement that opens a command's transaction on `streamId`: its events (of `types` and its last, when given). */
function streamRead(streamId: string, types: readonly string[] | undefined): Statement {
  return types ? { statement: READ_STREAM_OF_TYPES, params: [streamId, types] } : { statement: READ_STREAM, params: [streamId] };
}

/**
 * The events of `event`'s stream before it, in order: what a command had read before appending
 * it, for a projection that folds the stream when it is not handed it (a rebuild).
 */
export async function streamBefore<E extends DomainEvent>(manager: EntityManager, event: AppendedEvent<E>): Promise<StoredEvent<E>[]> {
  const rows: EventRow[] = await manager.query(`SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = $1 AND stream_version < $2 ORDER BY stream_version`, [
    event.streamId,
    event.streamVersion,
  ]);
  return rows.map((row) => fromRow<E>(row));
}

/**
 * Append-only event log of one service. An append writes the events and their outgoing
 * messages (the outbox) and updates the inline projections, all in the caller's transaction;
 * the stream's version is checked as it commits (optimistic concurrency).
 */
export class EventStore<E extends DomainEvent = DomainEvent> {
  /** Transactions that wrote to the outbox and have not committed yet. */
  private readonly outboxWriters = new WeakSet<EntityManager>();
  private readonly outboxListeners: (() => void)[] = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly routing: OutboxRouting<E>,
    private readonly projections: readonly Projection<E>[],
  ) {}

  /** A stream's events, as the events of its union `S` (`fromRow`). */
  async readStream<S extends E = E>(streamId: string, manager: EntityManager = this.dataSource.manager): Promise<StoredEvent<S>[]> {
    const rows: EventRow[] = await manager.query(READ_STREAM.text, [streamId]);
    return rows.map((row) => fromRow<S>(row));
  }

  /**
   * Runs `work` in a transaction; appends made through it commit or roll back together. When
   * it committed outbox messages, the `onOutboxCommit` listeners hear of it right after.
   * Given a stream, the transaction opens by reading it — in the same message as BEGIN, one
   * round trip for both — and `work` gets its events (given `types`, those of these types and
   * the stream's last). Writes made with `writeAtCommit` travel
   * with the COMMIT. A `newStream` (an id just minted) has nothing to read: `work` gets no
   * events, and the whole transaction is one round trip. Given a stream, `work` reads nothing
   * else and runs with the other commands of its turn, in one transaction
   * (`compactTransaction`'s `together`): it may run again, alone.
   *
   * It is the command's span (`append <event types>` once it appended): the events it writes
   * carry that span's `traceparent`, so the relay's publishing continues from it.
   */
  transaction<T, S extends E = E>(
    work: (manager: EntityManager, stream: StoredEvent<S>[]) => Promise<T>,
    streamId?: string,
    { newStream = false, types }: { newStream?: boolean; types?: readonly string[] } = {},
  ): Promise<T> {
    const idLoja = requestContext.get()?.idLoja;
    const attributes = { 'db.system.name': 'postgresql', ...(idLoja !== undefined && { [ATTR_ID_LOJA]: idLoja }) };
    const opening = streamId === undefined ? undefined : newStream ? null : [streamRead(streamId, types)];
    return withSpanFrom('command', 'active', { kind: 'internal', attributes }, () => this.inTransaction(work, opening));
  }

  private async inTransaction<T, S extends E>(work: (manager: EntityManager, stream: StoredEvent<S>[]) => Promise<T>, opening: Opening): Promise<T> {
    let wroteOutbox = false;
    try {
      const value = await compactTransaction(
        this.dataSource,
        opening,
        async (manager, read) => {
          const result = await work(manager, (read?.rows ?? []).map((row: EventRow) => fromRow<S>(row)));
          wroteOutbox = this.outboxWriters.has(manager);
          return result;
        },
        { together: opening !== undefined },
      );
      if (wroteOutbox) for (const listener of this.outboxListeners) listener();
      return value;
    } catch (error) {
      throw asConcurrencyError(error);
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
   * COMMIT with a `ConcurrencyError`; an inline projection reads nothing they wrote. Each event's
   * id is a new UUIDv7 (@trilha/ids): ids sort by creation, and `event_id`'s unique index grows at its end.
   */
  async append<S extends E>(
    manager: EntityManager,
    streamId: string,
    expectedVersion: number,
    events: readonly S[],
    options: AppendOptions<S>,
  ): Promise<AppendedEvent<S>[]> {
    const context = requestContext.get();
    const correlationId = options.correlationId ?? context?.correlationId ?? novoId();
    const causationId = options.causationId !== undefined ? options.causationId : (context?.causationId ?? null);
    const traceparent = currentTraceparent();
    trace.getActiveSpan()?.updateName(`append ${[...new Set(events.map((event) => event.type))].join(',')}`).setAttribute(ATTR_ID_LOJA, options.idLoja);
    const appended: AppendedEvent<S>[] = [];
    for (const [index, domainEvent] of events.entries()) {
      const event: AppendedEvent<S> = { ...domainEvent, id: novoId(), schemaVersion: 1, idLoja: options.idLoja, correlationId, causationId, traceparent, streamId, streamVersion: expectedVersion + index + 1 };
      const routes = this.routing(event).map(({ topic, schemaVersion, data }) => ({ topic, schemaVersion, data }));
      try {
        await writeAtCommit(manager, APPEND, [streamId, event.streamVersion, event.id, event.type, JSON.stringify(event.data), options.idLoja,
          correlationId, causationId, traceparent, JSON.stringify(routes)]);
      } catch (error) {
        throw asConcurrencyError(error);
      }
      if (routes.length > 0) this.outboxWriters.add(manager);
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

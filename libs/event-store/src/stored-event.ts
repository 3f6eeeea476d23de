import type { EventEnvelope } from '@trilha/contracts';

/** A fact a decider returns, before it gets its envelope. */
export interface DomainEvent<TType extends string = string, TData extends object = object> {
  type: TType;
  data: TData;
}

/** What the event store adds to an event: its envelope's fields and its place in its stream. */
export type EventMetadata = Omit<EventEnvelope, 'type' | 'data' | 'occurredAt'> & { streamId: string; streamVersion: number };

/**
 * An event as its command appended it: the event with its envelope and its place in the
 * stream. `E` is the stream's union of events; narrowing on `type` narrows `data`. Its position
 * in the log and its `occurredAt` (PostgreSQL's clock) are set when it is written, with the COMMIT.
 */
export type AppendedEvent<E extends DomainEvent = DomainEvent> = E & EventMetadata;

/** An event as kept in the event store: its envelope and its place in the stream and the log. */
export type StoredEvent<E extends DomainEvent = DomainEvent> = AppendedEvent<E> & { occurredAt: string; globalPosition: string };

export interface EventRow {
  global_position: string;
  stream_id: string;
  stream_version: number;
  event_id: string;
  type: string;
  schema_version: number;
  data: object;
  id_loja: number;
  correlation_id: string;
  causation_id: string | null;
  traceparent: string | null;
  occurred_at: Date;
}

/**
 * A row of the events table as an event of the union its reader expects. This is the one
 * place where the log's untyped rows become typed events: a stream holds only what its
 * decider appended (`E`), and a projection is handed only the types it `handles`, so the
 * type is the reader's word for what it reads, not something checked here.
 */
export function fromRow<E extends DomainEvent = DomainEvent>(row: EventRow): StoredEvent<E> {
  const event: StoredEvent = {
    id: row.event_id,
    type: row.type,
    schemaVersion: row.schema_version,
    occurredAt: row.occurred_at.toISOString(),
    idLoja: row.id_loja,
    correlationId: row.correlation_id,
    causationId: row.causation_id,
    traceparent: row.traceparent,
    data: row.data,
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    globalPosition: String(row.global_position),
  };
  return event as StoredEvent<E>;
}

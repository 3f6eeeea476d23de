import type { EventEnvelope } from '@trilha/contracts';

/** A fact a decider returns, before it gets its envelope. */
export interface DomainEvent<TType extends string = string, TData extends object = object> {
  type: TType;
  data: TData;
}

/** An event as kept in the event store: its envelope and its place in the stream and the log. */
export interface StoredEvent<TData extends object = object, TType extends string = string> extends EventEnvelope<TData, TType> {
  streamId: string;
  streamVersion: number;
  globalPosition: string;
}

/**
 * An event as its command appended it: the envelope and its place in the stream. Its position
 * in the log and its `occurredAt` (PostgreSQL's clock) are set when it is written, with the COMMIT.
 */
export type AppendedEvent<TData extends object = object, TType extends string = string> = Omit<StoredEvent<TData, TType>, 'globalPosition' | 'occurredAt'>;

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

export function fromRow(row: EventRow): StoredEvent {
  return {
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
}

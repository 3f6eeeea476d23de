import { IsInt, IsISO8601, IsObject, IsOptional, IsString, IsUUID, Matches, Min } from 'class-validator';

/** W3C trace-context header value: version-traceid-parentid-flags. */
export const TRACEPARENT_PATTERN = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

/**
 * The envelope every stored event and every Kafka message carries (docs/ARCHITECTURE.md, "Events").
 * `data` is the event's payload, validated against the payload class of its `type`.
 */
export interface EventEnvelope<TData extends object = object, TType extends string = string> {
  id: string;
  type: TType;
  schemaVersion: number;
  occurredAt: string;
  idLoja: number;
  correlationId: string;
  causationId: string | null;
  traceparent: string | null;
  data: TData;
}

/** Validation shape of the envelope, shared by every consumer. */
export class EventEnvelopeMessage {
  @IsUUID() id: string;
  @IsString() type: string;
  @IsInt() @Min(1) schemaVersion: number;
  @IsISO8601({ strict: true }) occurredAt: string;
  @IsInt() @Min(1) idLoja: number;
  @IsString() correlationId: string;
  @IsOptional() @IsString() causationId: string | null;
  @IsOptional() @Matches(TRACEPARENT_PATTERN) traceparent: string | null;
  @IsObject() data: object;
}


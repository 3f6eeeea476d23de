import type { DynamicModule, Type } from '@nestjs/common';
import type { RouteInfo } from '@nestjs/common/interfaces';
import type { TopicName } from '@trilha/contracts';
import type { ServiceDatabase } from './database';
import type { OutboxRouting } from './event-store';
import type { Projection } from './projections/projection';
import type { DomainEvent } from './stored-event';

/**
 * A bounded context's service, declared once by the context (`TRACKING_SERVICE`, …) and read by
 * its entry point (`main.ts`: the schema and its migrations, the event store, the consumer), by
 * the OpenAPI build (its routes, marked with its name, by which the gateway forwards them) and by
 * `main.js rebuild-projections`.
 */
export interface ServiceDefinition<E extends DomainEvent = DomainEvent> {
  /** The process: its logs, its Kafka client ids and consumer group, the `x-trilha-servico` of its routes. */
  readonly name: string;
  /** Its own PostgreSQL schema; it owns every table in it. */
  readonly schema: string;
  /** The schema's migrations, oldest first (the event store's tables are added to them). */
  readonly migrations: ServiceDatabase['migrations'];
  /** Inline projections of its own events: kept as it appends them, rebuilt by `main.js rebuild-projections`. */
  readonly projections: readonly Type<Projection<E>>[];
  /** Where its events go: the messages the outbox publishes for each, one per topic. */
  readonly routing: OutboxRouting<E>;
  /** The topics its message controllers read: each must have one, and none reads another. */
  readonly consumes: readonly TopicName[];
  /**
   * The module whose controllers are its public routes, for the OpenAPI document: options that
   * shape only what they do at run time are placeholders there.
   */
  httpRoutes(): DynamicModule | Type;
  /** Its routes outside /v1 (the public tracking page). */
  readonly unprefixedRoutes?: RouteInfo[];
}

import type { INestApplication } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { KafkaConnection } from '@trilha/config';
import type { DomainEvent, ServiceDatabase, ServiceDefinition } from '@trilha/event-store';

/**
 * A maintenance command of one service, `main.js <name> [arg…]`: it gets the service's database
 * (its schema), its arguments, and where to write its progress lines; then the process exits.
 */
export type ServiceCommand = (dataSource: DataSource, args: string[], progress: (line: string) => void) => Promise<void>;

/** How a service's process runs (`runService`): its definition, and what its configuration decides. */
export interface ServiceSpec<E extends DomainEvent = DomainEvent> {
  service: ServiceDefinition<E>;
  database: ServiceDatabase;
  kafka: KafkaConnection;
  opsPort: number;
  /** The address the ops port listens on (LISTEN_ADDRESS, as `listen`'s port). */
  listenAddress: string;
  /** Creates the Nest application (the gateway adds TLS and its middleware). */
  createApp(): Promise<INestApplication>;
  /**
   * The Kafka consumer of the service's message controllers, when its definition reads topics.
   * `groupId`: the service's name unless told; `fromBeginning`: true unless told.
   * `partitions`: how many partitions it handles at once (default 1); each stays in order.
   * `fetchMinBytes`: how much a fetch waits for, up to 500 ms (default: the first message).
   */
  consumer?: { groupId?: string; fromBeginning?: boolean; partitions?: number; fetchMinBytes?: number };
  /** The service's own commands, by name. */
  commands?: Record<string, ServiceCommand>;
  /** Starts serving requests, if the service has a public port. */
  listen?(app: INestApplication): Promise<void>;
}

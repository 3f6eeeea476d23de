import { Inject, Module, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { KafkaConnection } from '@trilha/config';
import { dataSourceOptions, ensureSchema, type ServiceDatabase } from './database';
import { EventStore } from './event-store';
import { ExpiredIdempotencyKeys } from './idempotency/expired-idempotency-keys';
import { ConsumerMembership } from './inbox/consumer-membership';
import { MessageConsumer } from './inbox/message-consumer';
import { ParkedMessages } from './inbox/parked-messages';
import { createKafka } from './kafka';
import { OutboxRelay } from './outbox/outbox-relay';
import { measureOutboxAge } from './outbox/outbox-age';
import type { Projection } from './projections/projection';
import type { ServiceDefinition } from './service-definition';
import type { DomainEvent } from './stored-event';

export interface EventStoreModuleOptions<E extends DomainEvent = DomainEvent> {
  /** The service: its name, its events' routing, its inline projections. */
  service: ServiceDefinition<E>;
  database: ServiceDatabase;
  runMigrations: boolean;
  kafka: KafkaConnection;
}

export const PROJECTIONS = Symbol('PROJECTIONS');

class OutboxRelayLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(OutboxRelay) private readonly relay: OutboxRelay,
    @Inject(MessageConsumer) private readonly consumer: MessageConsumer,
  ) {}

  onApplicationBootstrap(): void {
    this.relay.start();
  }

  async onApplicationShutdown(): Promise<void> {
    this.consumer.stop();
    await this.relay.stop();
  }
}

/**
 * A service's persistence and messaging: its PostgreSQL schema (migrated), the event store,
 * the outbox relay, the inbox consumer and its group membership. Every service imports it once.
 */
@Module({})
export class EventStoreModule {
  static forService<E extends DomainEvent>(options: EventStoreModuleOptions<E>): DynamicModule {
    const projections = [...options.service.projections];
    const providers: Provider[] = [
      ...projections,
      { provide: PROJECTIONS, useFactory: (...instances: Projection[]) => instances, inject: projections },
      {
        provide: OutboxRelay,
        useFactory: () => new OutboxRelay(createKafka(options.kafka, `${options.service.name}-relay`), options.database),
      },
      {
        provide: EventStore,
        useFactory: (dataSource: DataSource, instances: Projection<E>[], relay: OutboxRelay) => {
          const store = new EventStore<E>(dataSource, options.service.routing, instances);
          store.onOutboxCommit(() => relay.wake());
          measureOutboxAge(dataSource);
          return store;
        },
        inject: [getDataSourceToken(), PROJECTIONS, OutboxRelay],
      },
      { provide: MessageConsumer, useFactory: (dataSource: DataSource) => new MessageConsumer(dataSource), inject: [getDataSourceToken()] },
      { provide: ParkedMessages, useFactory: (dataSource: DataSource) => new ParkedMessages(dataSource), inject: [getDataSourceToken()] },
      { provide: ConsumerMembership, useValue: new ConsumerMembership() },
      OutboxRelayLifecycle,
      ExpiredIdempotencyKeys,
    ];
    return {
      module: EventStoreModule,
      global: true,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => dataSourceOptions(options.database),
          dataSourceFactory: async (dataSourceOptionsValue) => {
            if (options.runMigrations) await ensureSchema(options.database);
            const dataSource = await new DataSource(dataSourceOptionsValue!).initialize();
            if (options.runMigrations) await dataSource.runMigrations({ transaction: 'each' });
            return dataSource;
          },
        }),
      ],
      providers,
      exports: [EventStore, MessageConsumer, ParkedMessages, ConsumerMembership, PROJECTIONS, TypeOrmModule],
    };
  }
}

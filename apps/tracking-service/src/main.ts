import './tracing';
import { TOPICS } from '@trilha/contracts';
import { EventStoreModule } from '@trilha/event-store';
import { loggingModule } from '@trilha/observability';
import { main, runInternalService } from '@trilha/service-runtime';

/** Orders, volumes and tracking events. Every event it stores is published to tracking.events.v1. */
main(() =>
  runInternalService({
    name: 'tracking-service',
    schema: 'tracking',
    migrations: [],
    consumes: false,
    module: (config, database) => ({
      module: class TrackingServiceModule {},
      imports: [
        loggingModule('tracking-service', config.LOG_LEVEL),
        EventStoreModule.forService({
          service: 'tracking-service',
          database,
          runMigrations: config.DB_MIGRATIONS_RUN,
          kafkaBrokers: config.KAFKA_BROKERS,
          routing: (event) => ({ topic: TOPICS.tracking, data: event.data }),
        }),
      ],
    }),
  }),
);

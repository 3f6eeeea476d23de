import './tracing';
import { z } from 'zod';
import { DeliveryModule, deliveryOptions, deliverySettings, LojasConhecidas1732000000200, WebhooksEntregasFila1732000000300 } from '@trilha/delivery';
import { EventStoreModule } from '@trilha/event-store';
import { loggingModule } from '@trilha/observability';
import { internalServiceSettings, main, runInternalService } from '@trilha/service-runtime';

main(() =>
  runInternalService({
    name: 'delivery-service',
    schema: 'delivery',
    migrations: [LojasConhecidas1732000000200, WebhooksEntregasFila1732000000300],
    config: z.object({ ...internalServiceSettings, ...deliverySettings }),
    consumes: true,
    // Recording a notification is one short transaction; several partitions at once keep up
    // with thousands of events per second, while each store's events stay in order.
    consumerPartitions: 6,
    module: (config, database) => ({
      module: class DeliveryServiceModule {},
      imports: [
        loggingModule('delivery-service', config.LOG_LEVEL),
        EventStoreModule.forService({
          service: 'delivery-service',
          database,
          runMigrations: config.DB_MIGRATIONS_RUN,
          kafkaBrokers: config.KAFKA_BROKERS,
          routing: () => null,
          projections: [],
        }),
        DeliveryModule.register(deliveryOptions(config, database.url)),
      ],
    }),
  }),
);

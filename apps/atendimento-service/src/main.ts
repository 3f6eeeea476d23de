import './tracing';
import { TOPICS } from '@trilha/contracts';
import { EventStoreModule } from '@trilha/event-store';
import { loggingModule } from '@trilha/observability';
import { main, runInternalService } from '@trilha/service-runtime';

/** Support conversations and virtual agents. Every event it stores is published to atendimento.events.v1. */
main(() =>
  runInternalService({
    name: 'atendimento-service',
    schema: 'atendimento',
    migrations: [],
    consumes: false,
    module: (config, database) => ({
      module: class AtendimentoServiceModule {},
      imports: [
        loggingModule('atendimento-service', config.LOG_LEVEL),
        EventStoreModule.forService({
          service: 'atendimento-service',
          database,
          runMigrations: config.DB_MIGRATIONS_RUN,
          kafkaBrokers: config.KAFKA_BROKERS,
          routing: (event) => ({ topic: TOPICS.atendimento, data: event.data }),
        }),
      ],
    }),
  }),
);

import './tracing';
import {
  AgentesProjection,
  AtendimentoModule,
  atendimentoRouting,
  AtendimentosEAgentes1732000000300,
  AtendimentosProjection,
  RastreioPedidos1732000000310,
} from '@trilha/atendimento';
import { EventStoreModule } from '@trilha/event-store';
import { loggingModule } from '@trilha/observability';
import { main, runInternalService } from '@trilha/service-runtime';

/**
 * Support conversations and virtual agents. Conversation events go to atendimento.events.v1;
 * agent events stay private. Consumes lojas.events.v1 (each store's built-in agent) and
 * tracking.events.v1 (what the agents know of the stores' orders).
 */
main(() =>
  runInternalService({
    name: 'atendimento-service',
    schema: 'atendimento',
    migrations: [AtendimentosEAgentes1732000000300, RastreioPedidos1732000000310],
    consumes: true,
    // Every tracking event of every store comes here, for a view the agents read: fetches of
    // 16 KiB (a dozen events under load) cost the service and the broker a fraction of what
    // fetches of one or two do, for up to 500 ms before a lone message is applied.
    consumerFetchMinBytes: 16 * 1024,
    // Every partition at once, each in order: the view's writes of the messages handled
    // together go to PostgreSQL in one message (MessageConsumer's idempotent handlers).
    consumerPartitions: 12,
    projections: [new AtendimentosProjection(), new AgentesProjection()],
    module: (config, database, kafka) => ({
      module: class AtendimentoServiceModule {},
      imports: [
        loggingModule('atendimento-service', config.LOG_LEVEL),
        EventStoreModule.forService({
          service: 'atendimento-service',
          database,
          runMigrations: config.DB_MIGRATIONS_RUN,
          kafka,
          routing: atendimentoRouting,
          projections: [AtendimentosProjection, AgentesProjection],
        }),
        AtendimentoModule,
      ],
    }),
  }),
);

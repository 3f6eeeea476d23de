import './tracing';
import { ATENDIMENTO_SERVICE, AtendimentoModule } from '@trilha/atendimento';
import { main, runInternalService } from '@trilha/service-runtime';

main(() =>
  runInternalService({
    service: ATENDIMENTO_SERVICE,
    module: () => AtendimentoModule,
    // Every tracking event of every store comes here, for a view the agents read: fetches of
    // 16 KiB (a dozen events under load) cost the service and the broker a fraction of what
    // fetches of one or two do, for up to 500 ms before a lone message is applied.
    consumerFetchMinBytes: 16 * 1024,
    // Every partition at once, each in order: the view's writes of the messages handled
    // together go to PostgreSQL in one message (MessageConsumer's idempotent handlers).
    consumerPartitions: 12,
  }),
);

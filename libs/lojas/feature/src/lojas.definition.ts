import { TOPICS } from '@trilha/contracts';
import type { ServiceDefinition } from '@trilha/event-store';
import type { LojaEvent } from '@trilha/lojas-domain';
import { LojasModule } from './lojas.module';
import { LojasProjection } from './lojas.projection';
import { lojasRouting } from './lojas.routing';
import { Lojas1732000000100 } from './migrations/1732000000100-lojas';
import { Portal1732000000600 } from './migrations/1732000000600-portal';

/**
 * The public API's own service: stores, their codes and tokens. Its events go to
 * lojas.events.v1, which every replica also reads (its own consumer group) to keep its token
 * checks current; every other route it forwards to the service that declares it.
 */
export const API_GATEWAY_SERVICE: ServiceDefinition<LojaEvent> = {
  name: 'api-gateway',
  schema: 'gateway',
  migrations: [Lojas1732000000100, Portal1732000000600],
  projections: [LojasProjection],
  routing: lojasRouting,
  consumes: [TOPICS.lojas],
  // Options only shape what the module does at run time; documentation needs none of it.
  httpRoutes: () => LojasModule.register({ tokenSecret: 'documentation-only-'.padEnd(32, '-'), tokenTtlSeconds: 3600, publicBaseUrl: 'https://documentation.invalid' }),
};

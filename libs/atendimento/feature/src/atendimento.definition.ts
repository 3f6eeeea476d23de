import { TOPICS } from '@trilha/contracts';
import type { AtendimentoServiceEvent } from '@trilha/atendimento-domain';
import type { ServiceDefinition } from '@trilha/event-store';
import { AtendimentoHttpModule } from './atendimento.module';
import { AtendimentosEAgentes1732000000300 } from './migrations/1732000000300-atendimentos-e-agentes';
import { RastreioPedidos1732000000310 } from './migrations/1732000000310-rastreio-pedidos';
import { AgentesProjection } from './shared/agentes.projection';
import { atendimentoRouting } from './shared/atendimento.routing';
import { AtendimentosProjection } from './shared/atendimentos.projection';

/**
 * Support conversations and virtual agents. Conversation events go to atendimento.events.v1;
 * agent events stay private. Reads lojas.events.v1 (each store's built-in agent) and
 * tracking.events.v1 (what the agents know of the stores' orders).
 */
export const ATENDIMENTO_SERVICE: ServiceDefinition<AtendimentoServiceEvent> = {
  name: 'atendimento-service',
  schema: 'atendimento',
  migrations: [AtendimentosEAgentes1732000000300, RastreioPedidos1732000000310],
  projections: [AtendimentosProjection, AgentesProjection],
  routing: atendimentoRouting,
  consumes: [TOPICS.lojas, TOPICS.tracking],
  httpRoutes: () => AtendimentoHttpModule,
};

import { TOPICS } from '@trilha/contracts';
import type { ServiceDefinition } from '@trilha/event-store';
import { DeliveryHttpModule } from './delivery.module';
import { LojasConhecidas1732000000200 } from './migrations/1732000000200-lojas-conhecidas';
import { WebhooksEntregasFila1732000000300 } from './migrations/1732000000300-webhooks-entregas-fila';
import { WebhooksSaudeRotacaoRecuperacao1732000000410 } from './migrations/1732000000410-webhooks-saude-rotacao-recuperacao';
import { EntregasTraceparentPrimeira1732000000420 } from './migrations/1732000000420-entregas-traceparent-primeira';
import { TentativasRequisicaoResposta1732000000510 } from './migrations/1732000000510-tentativas-requisicao-resposta';

/**
 * Webhook registrations, push delivery with durable retries, and the per-store queue. It writes
 * no event of its own; it reads the topics the notifications come from (NOTIFICATIONS) and
 * lojas.events.v1 for its view of stores.
 */
export const DELIVERY_SERVICE: ServiceDefinition = {
  name: 'delivery-service',
  schema: 'delivery',
  migrations: [LojasConhecidas1732000000200, WebhooksEntregasFila1732000000300, WebhooksSaudeRotacaoRecuperacao1732000000410, EntregasTraceparentPrimeira1732000000420, TentativasRequisicaoResposta1732000000510],
  projections: [],
  routing: () => [],
  consumes: [TOPICS.lojas, TOPICS.atendimento],
  httpRoutes: () => DeliveryHttpModule,
};

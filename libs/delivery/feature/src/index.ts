export * from './delivery.module';
export { cifrarSegredos } from './cifrar-segredos/cifrar-segredos';
export { deliveryOptions, deliverySettings, type DeliveryOptions } from './shared/delivery.options';
export { LojasConhecidas1732000000200 } from './migrations/1732000000200-lojas-conhecidas';
export { WebhooksEntregasFila1732000000300 } from './migrations/1732000000300-webhooks-entregas-fila';
export { WebhooksSaudeRotacaoRecuperacao1732000000410 } from './migrations/1732000000410-webhooks-saude-rotacao-recuperacao';
export { EntregasTraceparentPrimeira1732000000420 } from './migrations/1732000000420-entregas-traceparent-primeira';
export { LOJAS_CONHECIDAS_CONSUMER } from './lojas-conhecidas/lojas-conhecidas-e-remocao-do-aplicativo.message.controller';
export { NOTIFICACOES_CONSUMER } from './registrar-notificacao/registrar-notificacao.message.controller';

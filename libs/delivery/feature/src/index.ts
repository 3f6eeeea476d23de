export { DELIVERY_SERVICE } from './delivery.definition';
export * from './delivery.module';
export { cifrarSegredos } from './cifrar-segredos/cifrar-segredos';
export { deliveryOptions, deliverySettings, type DeliveryOptions } from './shared/delivery.options';
export { LOJAS_CONHECIDAS_CONSUMER } from './lojas-conhecidas/lojas-conhecidas-e-remocao-do-aplicativo.message.controller';
export { NOTIFICACOES_CONSUMER } from './registrar-notificacao/registrar-notificacao.message.controller';

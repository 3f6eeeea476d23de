export * from './delivery.module';
export { LojasConhecidas1732000000200 } from './lojas-conhecidas/1732000000200-lojas-conhecidas';
export { LOJAS_CONHECIDAS_CONSUMER } from './lojas-conhecidas/lojas-conhecidas.message.controller';

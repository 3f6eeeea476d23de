// What the context's use cases share: one import path for them ('../shared').
export * from './banco';
export * from './delivery.options';
export * from './desativacao';
export * from './endereco.guard';
export * from './fila';
export * from './nomes-locais';
export * from './propriedades-das-flags';
export * from './verificacao';
export * from './webhook.client';
export * from './webhook.response';
export * from './webhooks';

export * from './eventos';
export * from './pedido';
export * from './volumes';
export * from './hash-evento';
export * from './rastreio';

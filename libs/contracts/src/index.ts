export * from './envelope';
export * from './topics';
export * from './validate-message';
export * from './lojas.events.v1';

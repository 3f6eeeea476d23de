export * from './envelope';
export * from './topics';
export * from './validate-message';
export * from './lojas.events.v1';
export * from './tracking.events.v1';
export * from './atendimento.events.v1';

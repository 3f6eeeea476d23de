export * from './eventos';
export * from './atendimento';
export * from './agente';
export * from './faq-index';
export * from './rastreio';
export * from './resposta';
export * from './cortar';

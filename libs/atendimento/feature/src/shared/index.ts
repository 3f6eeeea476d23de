// What the context's use cases share: one import path for them ('../shared').
export * from './agente-commands';
export * from './agente.response';
export * from './agentes.projection';
export * from './atendimento-commands';
export * from './atendimento.response';
export * from './atendimento.routing';
export * from './atendimentos.projection';
export * from './indices-faq';
export * from './leitura-de-atendimento';
export * from './rastreio-pedidos';

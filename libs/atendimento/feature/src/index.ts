export { AtendimentoHttpModule, AtendimentoModule } from './atendimento.module';
export { atendimentoRouting } from './atendimento.routing';
export { AtendimentosProjection } from './atendimentos.projection';
export { AgentesProjection } from './agentes.projection';
export { AtendimentosEAgentes1732000000300 } from './migrations/1732000000300-atendimentos-e-agentes';
export { RastreioPedidos1732000000310 } from './rastreio-pedidos/1732000000310-rastreio-pedidos';
export { aplicarEventoDeRastreio, RastreioPedidos } from './rastreio-pedidos/rastreio-pedidos';
export { RASTREIO_PEDIDOS_CONSUMER } from './rastreio-pedidos/rastreio-pedidos.message.controller';
export { ASSISTENTE_DE_RASTREIO_CONSUMER } from './assistente-de-rastreio/assistente-de-rastreio.message.controller';

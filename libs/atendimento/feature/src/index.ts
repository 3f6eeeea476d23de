export { ATENDIMENTO_SERVICE } from './atendimento.definition';
export { AtendimentoHttpModule, AtendimentoModule } from './atendimento.module';
export { aplicarEventoDeRastreio } from './rastreio-pedidos/aplicar-evento-de-rastreio';
export { RastreioPedidos } from './shared/rastreio-pedidos';
export { RASTREIO_PEDIDOS_CONSUMER } from './rastreio-pedidos/rastreio-pedidos.message.controller';
export { ASSISTENTE_DE_RASTREIO_CONSUMER } from './assistente-de-rastreio/assistente-de-rastreio.message.controller';

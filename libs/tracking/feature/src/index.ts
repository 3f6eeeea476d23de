export * from './tracking.module';
export * from './tracking.options';
export * from './read-model/pedidos.projection';
export * from './read-model/rastreios.projection';
export * from './read-model/tracking.routing';
export { PAGINA_PUBLICA_ROUTES } from './pagina-publica/pagina-publica.http.controller';
export { Tracking1732000000300 } from './migrations/1732000000300-tracking';
export { RastreiosLz41732000000310 } from './migrations/1732000000310-rastreios-lz4';

export * from './tracking.module';
export * from './tracking.options';
export * from './read-model/pedidos.projection';
export * from './read-model/rastreios.projection';
export * from './read-model/tracking.routing';
export { PAGINA_PUBLICA_ROUTES } from './pagina-publica/pagina-publica.http.controller';
export { trackingMigrations } from './migrations';

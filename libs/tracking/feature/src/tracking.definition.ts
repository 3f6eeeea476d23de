import type { PedidoEvent } from '@trilha/tracking-domain';
import type { ServiceDefinition } from '@trilha/event-store';
import { trackingMigrations } from './migrations';
import { PAGINA_PUBLICA_ROUTES } from './pagina-publica/pagina-publica.http.controller';
import { PedidosProjection } from './read-model/pedidos.projection';
import { RastreiosProjection } from './read-model/rastreios.projection';
import { trackingRouting } from './read-model/tracking.routing';
import { TrackingModule } from './tracking.module';

/** Orders, volumes and tracking events, and the public tracking page. Its events go to tracking.events.v1; it reads no topic. */
export const TRACKING_SERVICE: ServiceDefinition<PedidoEvent> = {
  name: 'tracking-service',
  schema: 'tracking',
  migrations: trackingMigrations,
  projections: [PedidosProjection, RastreiosProjection],
  routing: trackingRouting,
  consumes: [],
  httpRoutes: () => TrackingModule.register({ publicBaseUrl: 'https://documentation.invalid' }),
  unprefixedRoutes: PAGINA_PUBLICA_ROUTES,
};

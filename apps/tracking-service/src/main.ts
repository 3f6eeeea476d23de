import './tracing';
import { EventStoreModule } from '@trilha/event-store';
import { loggingModule } from '@trilha/observability';
import { main, runInternalService } from '@trilha/service-runtime';
import { PAGINA_PUBLICA_ROUTES, PedidosProjection, RastreiosProjection, trackingMigrations, TrackingModule, trackingRouting } from '@trilha/tracking';
import { trackingConfigSchema } from './config';

/** Orders, volumes and tracking events, and the public tracking page. Its events go to tracking.events.v1. */
main(() =>
  runInternalService({
    name: 'tracking-service',
    schema: 'tracking',
    migrations: trackingMigrations,
    config: trackingConfigSchema,
    consumes: false,
    projections: [new PedidosProjection(), new RastreiosProjection()],
    prefixExclude: PAGINA_PUBLICA_ROUTES,
    module: (config, database, kafka) => ({
      module: class TrackingServiceModule {},
      imports: [
        loggingModule('tracking-service', config.LOG_LEVEL),
        EventStoreModule.forService({
          service: 'tracking-service',
          database,
          runMigrations: config.DB_MIGRATIONS_RUN,
          kafka,
          routing: trackingRouting,
          projections: [PedidosProjection, RastreiosProjection],
        }),
        TrackingModule.register({ publicBaseUrl: config.PUBLIC_BASE_URL }),
      ],
    }),
  }),
);

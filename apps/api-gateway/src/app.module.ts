import { Module, type DynamicModule } from '@nestjs/common';
import { kafkaConnection } from '@trilha/config';
import { EventStoreModule } from '@trilha/event-store';
import { LojasModule, LojasProjection, lojasRouting } from '@trilha/lojas';
import { GatewayRoutingModule, type OpenApiDocument } from '@trilha/gateway-routing';
import { RateLimitModule } from '@trilha/http';
import { loggingModule } from '@trilha/observability';
import { gatewayDatabase, type GatewayConfig } from './config';

/** The public API: stores and authentication here; every other route forwarded to its service. */
@Module({})
export class AppModule {
  static register(config: GatewayConfig, document: OpenApiDocument): DynamicModule {
    return {
      module: AppModule,
      imports: [
        loggingModule('api-gateway', config.LOG_LEVEL),
        EventStoreModule.forService({
          service: 'api-gateway',
          database: gatewayDatabase(config),
          runMigrations: config.DB_MIGRATIONS_RUN,
          kafka: kafkaConnection(config),
          routing: lojasRouting,
          projections: [LojasProjection],
        }),
        // Authentication first: the rate limiter keys its counters by the authenticated store.
        LojasModule.register({
          tokenSecret: config.TOKEN_SIGNING_SECRET,
          tokenTtlSeconds: config.TOKEN_TTL_SECONDS,
          adminApiKey: config.ADMIN_API_KEY,
        }),
        RateLimitModule.register({ redisUrl: config.REDIS_URL, defaultLimitPerMinute: config.RATE_LIMIT_DEFAULT_PER_MINUTE }),
        // Last: it forwards whatever the modules above do not serve.
        GatewayRoutingModule.register(document, {
          services: {
            'tracking-service': config.TRACKING_SERVICE_URL,
            'atendimento-service': config.ATENDIMENTO_SERVICE_URL,
            'delivery-service': config.DELIVERY_SERVICE_URL,
          },
          internalToken: config.INTERNAL_API_TOKEN,
          concurrentRequestsPerStore: config.CONCURRENT_REQUESTS_PER_STORE,
        }),
      ],
    };
  }
}

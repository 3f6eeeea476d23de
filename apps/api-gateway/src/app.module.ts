import { Module, type DynamicModule } from '@nestjs/common';
import { kafkaConnection } from '@trilha/config';
import { EventStoreModule } from '@trilha/event-store';
import { API_GATEWAY_SERVICE, LojasModule } from '@trilha/lojas';
import { apiCatalog, GatewayRoutingModule, type OpenApiDocument } from '@trilha/gateway-routing';
import { RateLimitModule } from '@trilha/http';
import { loggingModule } from '@trilha/observability';
import { gatewayDatabase, serviceUrls, type GatewayConfig } from './config';

/** The public API: stores and authentication here; every other route forwarded to its service. */
@Module({})
export class AppModule {
  static register(config: GatewayConfig, document: OpenApiDocument): DynamicModule {
    return {
      module: AppModule,
      imports: [
        loggingModule(API_GATEWAY_SERVICE.name, config.LOG_LEVEL),
        EventStoreModule.forService({ service: API_GATEWAY_SERVICE, database: gatewayDatabase(config), runMigrations: config.DB_MIGRATIONS_RUN, kafka: kafkaConnection(config) }),
        // Authentication first: the rate limiter keys its counters by the authenticated store.
        LojasModule.register({
          tokenSecret: config.TOKEN_SIGNING_SECRET,
          tokenTtlSeconds: config.TOKEN_TTL_SECONDS,
          adminApiKey: config.ADMIN_API_KEY,
          publicBaseUrl: config.PUBLIC_BASE_URL,
        }),
        RateLimitModule.register({ redisUrl: config.REDIS_URL, defaultLimitPerMinute: config.RATE_LIMIT_DEFAULT_PER_MINUTE }),
        // Last: it forwards whatever the modules above do not serve.
        GatewayRoutingModule.register(document, {
          services: serviceUrls(apiCatalog(document), config),
          internalToken: config.INTERNAL_API_TOKEN,
          concurrentRequestsPerStore: config.CONCURRENT_REQUESTS_PER_STORE,
        }),
      ],
    };
  }
}

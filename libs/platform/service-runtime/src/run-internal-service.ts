import { NestFactory, Reflector } from '@nestjs/core';
import type { DynamicModule, Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { z } from 'zod';
import { kafkaConnection, loadConfigOrExit, platformSettings, port, serviceConfigSchema } from '@trilha/config';
import { EventStoreModule, type DomainEvent, type ServiceDatabase, type ServiceDefinition } from '@trilha/event-store';
import { configureHttp, httpAdapter, InternalCallerGuard } from '@trilha/http';
import { loggingModule } from '@trilha/observability';
import { runService } from './run-service';
import type { ServiceCommand } from './service-spec';

export const internalServiceSettings = {
  ...platformSettings,
  /** Plain HTTP port the gateway forwards the service's routes to; never public. */
  INTERNAL_PORT: port,
  /** Shared with the gateway: proves a call on the internal port comes from it. */
  INTERNAL_API_TOKEN: z.string().min(32, 'must be at least 32 characters'),
};

export const internalServiceConfigSchema = serviceConfigSchema(internalServiceSettings);
export type InternalServiceConfig = z.infer<typeof internalServiceConfigSchema>;

export interface InternalServiceSpec<E extends DomainEvent, S extends z.ZodObject = typeof internalServiceConfigSchema> {
  /** What the service is: its name, schema and migrations, projections, routing, the topics it reads, its routes. */
  service: ServiceDefinition<E>;
  /** The service's settings: `serviceConfigSchema({ ...internalServiceSettings, … })`. */
  config?: S;
  /** The context's module (its routes, handlers and consumers), given the validated configuration. */
  module(config: InternalServiceConfig & z.infer<S>): DynamicModule | Type;
  /** Kafka partitions it handles at once (default 1). Each partition, so each store, stays in order. */
  consumerPartitions?: number;
  /**
   * How many bytes of messages a fetch waits for, up to 500 ms (default: the first message):
   * more for a service that reads a busy topic and can afford its messages a little later.
   */
  consumerFetchMinBytes?: number;
  /** Its own commands (`main.js <name>`), given its validated configuration. */
  commands?(config: InternalServiceConfig & z.infer<S>): Record<string, ServiceCommand>;
}

/**
 * Entry point of a service behind the gateway: configuration from the environment, then
 * runService with the app its definition describes (logging, the event store on its schema,
 * the context's module) on its internal port.
 */
export async function runInternalService<E extends DomainEvent, S extends z.ZodObject = typeof internalServiceConfigSchema>(spec: InternalServiceSpec<E, S>): Promise<void> {
  const { service } = spec;
  const config = loadConfigOrExit(spec.config ?? internalServiceConfigSchema) as InternalServiceConfig & z.infer<S>;
  const database: ServiceDatabase = { url: config.DATABASE_URL, schema: service.schema, poolSize: config.DATABASE_POOL_SIZE, migrations: service.migrations };
  const kafka = kafkaConnection(config);
  await runService({
    service,
    database,
    kafka,
    opsPort: config.OPS_PORT,
    listenAddress: config.LISTEN_ADDRESS,
    commands: spec.commands?.(config),
    consumer: { partitions: spec.consumerPartitions, fetchMinBytes: spec.consumerFetchMinBytes },
    async createApp() {
      const root: DynamicModule = {
        module: class InternalServiceModule {},
        imports: [
          loggingModule(service.name, config.LOG_LEVEL),
          EventStoreModule.forService({ service, database, runMigrations: config.DB_MIGRATIONS_RUN, kafka }),
          spec.module(config),
        ],
      };
      const app = await NestFactory.create<NestFastifyApplication>(root, httpAdapter(), { bufferLogs: true, bodyParser: false });
      configureHttp(app, { httpsOnly: false, prefixExclude: service.unprefixedRoutes });
      app.useGlobalGuards(new InternalCallerGuard(app.get(Reflector), config.INTERNAL_API_TOKEN));
      return app;
    },
    listen: (app) => app.listen(config.INTERNAL_PORT, config.LISTEN_ADDRESS),
  });
}

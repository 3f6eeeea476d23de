import { NestFactory, Reflector } from '@nestjs/core';
import type { DynamicModule } from '@nestjs/common';
import type { RouteInfo } from '@nestjs/common/interfaces';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { z } from 'zod';
import { kafkaConnection, loadConfigOrExit, platformSettings, port, serviceConfigSchema, type KafkaConnection } from '@trilha/config';
import type { Projection, ServiceDatabase } from '@trilha/event-store';
import { configureHttp, httpAdapter, InternalCallerGuard } from '@trilha/http';
import { runService, type ServiceCommand } from './run-service';

export const internalServiceSettings = {
  ...platformSettings,
  /** Plain HTTP port the gateway forwards the service's routes to; never public. */
  INTERNAL_PORT: port,
  /** Shared with the gateway: proves a call on the internal port comes from it. */
  INTERNAL_API_TOKEN: z.string().min(32, 'must be at least 32 characters'),
};

export const internalServiceConfigSchema = serviceConfigSchema(internalServiceSettings);
export type InternalServiceConfig = z.infer<typeof internalServiceConfigSchema>;

export interface InternalServiceSpec<S extends z.ZodObject = typeof internalServiceConfigSchema> {
  name: string;
  schema: string;
  migrations: ServiceDatabase['migrations'];
  /** The service's settings: `serviceConfigSchema({ ...internalServiceSettings, … })`. */
  config?: S;
  /** The service's root module, given its validated configuration, its database and its Kafka connection. */
  module(config: InternalServiceConfig & z.infer<S>, database: ServiceDatabase, kafka: KafkaConnection): DynamicModule;
  /** Whether it consumes Kafka topics (its group id is the service name). */
  consumes: boolean;
  /** Kafka partitions it handles at once (default 1). Each partition, so each store, stays in order. */
  consumerPartitions?: number;
  /**
   * How many bytes of messages a fetch waits for, up to 500 ms (default: the first message):
   * more for a service that reads a busy topic and can afford its messages a little later.
   */
  consumerFetchMinBytes?: number;
  /** Inline projections of its own events, for `main.js rebuild-projections`. */
  projections?: Projection[];
  /** Its own commands (`main.js <name>`), given its validated configuration. */
  commands?(config: InternalServiceConfig & z.infer<S>): Record<string, ServiceCommand>;
  /** Routes outside /v1 (the public tracking page). */
  prefixExclude?: (string | RouteInfo)[];
}

/** Entry point of a service behind the gateway: configuration from the environment, then runService. */
export async function runInternalService<S extends z.ZodObject = typeof internalServiceConfigSchema>(spec: InternalServiceSpec<S>): Promise<void> {
  const config = loadConfigOrExit(spec.config ?? internalServiceConfigSchema) as InternalServiceConfig & z.infer<S>;
  const database: ServiceDatabase = { url: config.DATABASE_URL, schema: spec.schema, poolSize: config.DATABASE_POOL_SIZE, migrations: spec.migrations };
  const kafka = kafkaConnection(config);
  await runService({
    name: spec.name,
    database,
    kafka,
    opsPort: config.OPS_PORT,
    listenAddress: config.LISTEN_ADDRESS,
    projections: spec.projections,
    commands: spec.commands?.(config),
    consumer: spec.consumes
      ? { groupId: spec.name, fromBeginning: true, partitions: spec.consumerPartitions, fetchMinBytes: spec.consumerFetchMinBytes }
      : undefined,
    async createApp() {
      const app = await NestFactory.create<NestFastifyApplication>(spec.module(config, database, kafka), httpAdapter(), { bufferLogs: true, bodyParser: false });
      configureHttp(app, { httpsOnly: false, prefixExclude: spec.prefixExclude });
      app.useGlobalGuards(new InternalCallerGuard(app.get(Reflector), config.INTERNAL_API_TOKEN));
      return app;
    },
    listen: (app) => app.listen(config.INTERNAL_PORT, config.LISTEN_ADDRESS),
  });
}

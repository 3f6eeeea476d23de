import { NestFactory } from '@nestjs/core';
import type { DynamicModule } from '@nestjs/common';
import { z } from 'zod';
import { loadConfigOrExit, platformSettings } from '@trilha/config';
import type { ServiceDatabase } from '@trilha/event-store';
import { runService } from './run-service';

export const internalServiceConfigSchema = z.object(platformSettings);
export type InternalServiceConfig = z.infer<typeof internalServiceConfigSchema>;

export interface InternalServiceSpec {
  name: string;
  schema: string;
  migrations: ServiceDatabase['migrations'];
  /** The service's root module, given its validated configuration and database. */
  module(config: InternalServiceConfig, database: ServiceDatabase): DynamicModule;
  /** Whether it consumes Kafka topics (its group id is the service name). */
  consumes: boolean;
}

/** Entry point of a service behind the gateway: configuration from the environment, then runService. */
export async function runInternalService(spec: InternalServiceSpec): Promise<void> {
  const config = loadConfigOrExit(internalServiceConfigSchema);
  const database: ServiceDatabase = { url: config.DATABASE_URL, schema: spec.schema, poolSize: config.DATABASE_POOL_SIZE, migrations: spec.migrations };
  await runService({
    name: spec.name,
    database,
    kafkaBrokers: config.KAFKA_BROKERS,
    opsPort: config.OPS_PORT,
    consumer: spec.consumes ? { groupId: spec.name, fromBeginning: true } : undefined,
    createApp: () => NestFactory.create(spec.module(config, database), { bufferLogs: true }),
  });
}

import { z } from 'zod';

/** Building blocks of each service's configuration schema. */
export const port = z.coerce.number().int().min(1).max(65535);

export const booleanFlag = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1');

export const postgresUrl = z
  .string()
  .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL');

export const brokerList = z
  .string()
  .min(1)
  .transform((value) => value.split(',').map((broker) => broker.trim()).filter(Boolean))
  .pipe(z.array(z.string().regex(/^[^:\s]+:\d+$/, 'each broker must be host:port')).min(1));

export const redisUrl = z.string().regex(/^rediss?:\/\//, 'must be a redis:// URL');

export const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace']).default('info');

/** Settings every service shares: where its database, broker and ops port are. */
export const platformSettings = {
  DATABASE_URL: postgresUrl,
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  KAFKA_BROKERS: brokerList,
  KAFKA_CLIENT_ID: z.string().min(1).optional(),
  OPS_PORT: port,
  LOG_LEVEL: logLevel,
  /** Run pending migrations at start-up (local runs); Kubernetes runs them in a hook Job instead. */
  DB_MIGRATIONS_RUN: booleanFlag.default(false),
};

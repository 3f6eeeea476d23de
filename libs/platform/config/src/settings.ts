import { readFileSync } from 'node:fs';
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

/** The path of a PEM file of certificates, read at start-up: the setting's value is the file's content. */
export const certificatesFile = z
  .string()
  .min(1)
  .transform((file, context) => {
    try {
      const pem = readFileSync(file, 'utf8');
      if (pem.includes('-----BEGIN CERTIFICATE-----')) return pem;
      context.addIssue({ code: 'custom', message: `${file} holds no PEM certificate` });
    } catch (error) {
      context.addIssue({ code: 'custom', message: `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` });
    }
    return z.NEVER;
  });

export const KAFKA_SASL_MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;
export type KafkaSaslMechanism = (typeof KAFKA_SASL_MECHANISMS)[number];

/** How a service reaches Kafka: the brokers, and TLS and SASL when the brokers ask for them. */
export const kafkaSettings = {
  KAFKA_BROKERS: brokerList,
  /** TLS to the brokers. */
  KAFKA_SSL: booleanFlag.default(false),
  /** PEM bundle of the CAs that sign the brokers' certificates (instead of the system's). Needs KAFKA_SSL. */
  KAFKA_SSL_CA_FILE: certificatesFile.optional(),
  /** SASL authentication; unset: none. With it, KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD. */
  KAFKA_SASL_MECHANISM: z.enum(KAFKA_SASL_MECHANISMS).optional(),
  KAFKA_SASL_USERNAME: z.string().min(1).optional(),
  KAFKA_SASL_PASSWORD: z.string().min(1).optional(),
};

export type KafkaSettings = z.output<z.ZodObject<typeof kafkaSettings>>;

/** Every interface, IPv6 and IPv4 (dual stack), as a Node server without a host (Fastify's own default is localhost only). */
const ALL_INTERFACES = '::';

/** Settings every service shares: where its database, broker and ops port are. */
export const platformSettings = {
  DATABASE_URL: postgresUrl,
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  ...kafkaSettings,
  OPS_PORT: port,
  /**
   * The address every port of the service listens on: every interface in a container, where
   * probes and Services reach the pod's own address; loopback on a shared machine (`npm start`).
   */
  LISTEN_ADDRESS: z.union([z.ipv4(), z.ipv6()]).default(ALL_INTERFACES),
  LOG_LEVEL: logLevel,
  /** Run pending migrations at start-up (local runs); Kubernetes runs them in a hook Job instead. */
  DB_MIGRATIONS_RUN: booleanFlag.default(false),
};

const SASL_CREDENTIALS = ['KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD'] as const;

/** What no single Kafka setting can check alone: SASL needs its credentials, a CA needs TLS. */
function checkKafkaSettings(config: KafkaSettings, context: z.RefinementCtx): void {
  for (const name of SASL_CREDENTIALS) {
    if (config.KAFKA_SASL_MECHANISM && !config[name]) context.addIssue({ code: 'custom', path: [name], message: 'required when KAFKA_SASL_MECHANISM is set' });
    if (!config.KAFKA_SASL_MECHANISM && config[name]) context.addIssue({ code: 'custom', path: [name], message: `set without KAFKA_SASL_MECHANISM (${KAFKA_SASL_MECHANISMS.join(', ')})` });
  }
  if (config.KAFKA_SSL_CA_FILE && !config.KAFKA_SSL) context.addIssue({ code: 'custom', path: ['KAFKA_SSL_CA_FILE'], message: 'set without KAFKA_SSL=true' });
}

/**
 * The configuration schema of a service: its settings (`platformSettings` plus its own), with the
 * rules between the Kafka settings. The rules run even when other variables are invalid, so one
 * start-up names every problem; only an invalid Kafka setting itself skips them.
 */
export function serviceConfigSchema<T extends z.ZodRawShape & typeof kafkaSettings>(shape: T) {
  return z.object(shape).superRefine((config, context) => checkKafkaSettings(config as KafkaSettings, context), {
    when: (payload) => !payload.issues.some((issue) => String(issue.path?.[0]) in kafkaSettings),
  });
}

/** How to reach Kafka, as every Kafka client of the codebase takes it (`createKafka` in @trilha/event-store). */
export interface KafkaConnection {
  brokers: string[];
  /** TLS; `ca`: PEM of the CAs that sign the brokers' certificates (absent: the system's). */
  tls?: { ca?: string };
  sasl?: { mechanism: KafkaSaslMechanism; username: string; password: string };
}

/** The connection the Kafka settings describe (validated by `serviceConfigSchema`). */
export function kafkaConnection(config: KafkaSettings): KafkaConnection {
  const connection: KafkaConnection = { brokers: config.KAFKA_BROKERS };
  if (config.KAFKA_SSL) connection.tls = config.KAFKA_SSL_CA_FILE ? { ca: config.KAFKA_SSL_CA_FILE } : {};
  if (config.KAFKA_SASL_MECHANISM) {
    connection.sasl = { mechanism: config.KAFKA_SASL_MECHANISM, username: config.KAFKA_SASL_USERNAME!, password: config.KAFKA_SASL_PASSWORD! };
  }
  return connection;
}

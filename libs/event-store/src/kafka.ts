import { Logger } from '@nestjs/common';
import { Kafka, logLevel, type KafkaConfig, type LogEntry, type SASLOptions } from 'kafkajs';
import type { KafkaConnection } from '@trilha/config';

const logger = new Logger('kafkajs');

function logCreator() {
  return ({ level, log }: LogEntry) => {
    const { message, ...extra } = log;
    if (level === logLevel.ERROR) logger.error({ msg: message, ...extra });
    else if (level === logLevel.WARN) logger.warn({ msg: message, ...extra });
  };
}

/**
 * kafkajs options of every Kafka client of the codebase: the connection (brokers, TLS, SASL),
 * a client id, logs through pino. TLS checks the brokers' certificates and host names against the
 * connection's CAs, or the system's.
 */
export function kafkaClientConfig(connection: KafkaConnection, clientId: string): KafkaConfig {
  const { tls, sasl } = connection;
  return {
    brokers: connection.brokers,
    clientId,
    ssl: tls ? (tls.ca ? { ca: [tls.ca] } : true) : false,
    // kafkajs types one options object per mechanism; ours are the same fields for all three.
    sasl: sasl as SASLOptions | undefined,
    logLevel: logLevel.WARN,
    logCreator,
    retry: { initialRetryTime: 100, retries: 8 },
  };
}

export function createKafka(connection: KafkaConnection, clientId: string): Kafka {
  return new Kafka(kafkaClientConfig(connection, clientId));
}

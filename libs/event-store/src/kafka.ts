import { Logger } from '@nestjs/common';
import { Kafka, logLevel, type KafkaConfig, type LogEntry } from 'kafkajs';

const logger = new Logger('kafkajs');

function logCreator() {
  return ({ level, log }: LogEntry) => {
    const { message, ...extra } = log;
    if (level === logLevel.ERROR) logger.error({ msg: message, ...extra });
    else if (level === logLevel.WARN) logger.warn({ msg: message, ...extra });
  };
}

/** kafkajs options every client of a service shares: brokers, client id, logs through pino. */
export function kafkaClientConfig(brokers: string[], clientId: string): KafkaConfig {
  return {
    brokers,
    clientId,
    logLevel: logLevel.WARN,
    logCreator,
    retry: { initialRetryTime: 100, retries: 8 },
  };
}

export function createKafka(brokers: string[], clientId: string): Kafka {
  return new Kafka(kafkaClientConfig(brokers, clientId));
}

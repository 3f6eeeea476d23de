import type { INestMicroservice } from '@nestjs/common';
import type { Consumer, ConsumerCrashEvent, Kafka, Producer } from 'kafkajs';
import { Gauge } from 'prom-client';

let consumerRunning: Gauge | undefined;
/** Registered by the first consumer kept running, so a service that consumes nothing (tracking) reports no consumer. */
const consumerRunningGauge = () =>
  (consumerRunning ??= new Gauge({
    name: 'trilha_kafka_consumer_running',
    help: 'Whether the service’s Kafka consumer is in its group (1) or stopped, starting or being started again (0)',
  }));

export interface RestartLogger {
  warn(message: string): void;
  error(message: string): void;
}

export interface ConsumerRun {
  /** Settles (never rejects) once the first start has run or failed. */
  firstStart: Promise<void>;
  /** For /readyz: rejects while the consumer is not in its group. */
  check(): Promise<void>;
  /** Ends the watch, for shutdown. */
  stop(): void;
}

/**
 * Starts the Kafka server of `microservice` and keeps it running. A start fails while Kafka is
 * unreachable, and kafkajs restarts a crashed consumer only when the cause is retriable: around a
 * broker restart it can give up for good instead ("Failed to find group coordinator" while the
 * broker is still down), leaving a service that answers requests but never consumes again. Either
 * way this starts the server anew, backing off from `firstDelayMs` to 30 s, until it runs; the
 * service meanwhile serves requests and its outbox keeps what they write.
 */
export function keepConsumerRunning(microservice: INestMicroservice, logger: RestartLogger, firstDelayMs = 1000): ConsumerRun {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  const setRunning = (value: boolean) => {
    running = value;
    consumerRunningGauge().set(value ? 1 : 0);
  };
  setRunning(false);

  const watch = () => {
    const [, consumer] = microservice.unwrap<[Kafka, Consumer, Producer]>();
    setRunning(true);
    // kafkajs restarts a consumer after a retriable crash, and rejoins after a rebalance.
    consumer.on(consumer.events.GROUP_JOIN, () => setRunning(true));
    consumer.on(consumer.events.CRASH, ({ payload }: ConsumerCrashEvent) => {
      setRunning(false);
      if (payload.restart || stopped) return; // kafkajs restarts it itself
      logger.error(`Kafka consumer ${payload.groupId} stopped for good (${payload.error.message}): starting it again`);
      scheduleStart(firstDelayMs);
    });
  };

  /** Starts the server; the error when it could not. */
  const tryStart = async (): Promise<Error | undefined> => {
    try {
      await microservice.listen();
      watch();
      return undefined;
    } catch (error) {
      return error as Error;
    }
  };

  const retry = (error: Error, delayMs: number) => {
    logger.error(`starting the Kafka consumer failed (${error.message}); retrying in ${delayMs} ms`);
    scheduleStart(delayMs);
  };

  const scheduleStart = (delayMs: number) => {
    timer = setTimeout(async () => {
      if (stopped) return;
      // A crashed consumer has disconnected itself but not its producer; a failed start may
      // have left both half-started.
      const [, consumer, producer] = microservice.unwrap<[Kafka, Consumer, Producer]>();
      await Promise.all([consumer.disconnect(), producer.disconnect()]).catch(() => undefined);
      const error = await tryStart();
      if (error) retry(error, Math.min(delayMs * 2, 30_000));
      else logger.warn('Kafka consumer started again');
    }, delayMs);
  };

  return {
    firstStart: tryStart().then((error) => error && retry(error, firstDelayMs)),
    check: async () => {
      if (!running) throw new Error('not in its group: starting');
    },
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

import type { INestMicroservice } from '@nestjs/common';
import type { Consumer, ConsumerCrashEvent, Kafka, Producer } from 'kafkajs';

export interface RestartLogger {
  warn(message: string): void;
  error(message: string): void;
}

/**
 * kafkajs restarts a crashed consumer only when the cause is retriable. Around a broker restart
 * it can give up for good instead ("Failed to find group coordinator" while the broker is still
 * down), leaving a service that answers requests but never consumes again. This starts the
 * Kafka server of `microservice` anew after such a crash, backing off from `firstDelayMs` to 30 s
 * until it runs. Returns the function that ends the watch, for shutdown.
 */
export function restartCrashedConsumer(microservice: INestMicroservice, logger: RestartLogger, firstDelayMs = 1000): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const watch = () => {
    const [, consumer] = microservice.unwrap<[Kafka, Consumer, Producer]>();
    consumer.on(consumer.events.CRASH, ({ payload }: ConsumerCrashEvent) => {
      if (payload.restart || stopped) return; // kafkajs restarts it itself
      logger.error(`Kafka consumer ${payload.groupId} stopped for good (${payload.error.message}): starting it again`);
      scheduleRestart(firstDelayMs);
    });
  };

  const scheduleRestart = (delayMs: number) => {
    timer = setTimeout(async () => {
      if (stopped) return;
      // A crashed consumer has disconnected itself but not its producer; a failed attempt may
      // have left both half-started.
      const [, consumer, producer] = microservice.unwrap<[Kafka, Consumer, Producer]>();
      await Promise.all([consumer.disconnect(), producer.disconnect()]).catch(() => undefined);
      try {
        await microservice.listen();
        watch();
        logger.warn('Kafka consumer started again');
      } catch (error) {
        const nextDelayMs = Math.min(delayMs * 2, 30_000);
        logger.error(`starting the Kafka consumer again failed (${(error as Error).message}); retrying in ${nextDelayMs} ms`);
        scheduleRestart(nextDelayMs);
      }
    }, delayMs);
  };

  watch();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

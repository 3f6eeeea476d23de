import type { INestMicroservice } from '@nestjs/common';
import type { Consumer, ConsumerCrashEvent, Kafka, Producer } from 'kafkajs';
import type { ConsumerMembership } from '@trilha/event-store';

const MAX_DELAY_MS = 5000;

export interface RestartLogger {
  warn(message: string): void;
  error(message: string): void;
}

export interface ConsumerRun {
  /** Settles (never rejects) once the first start has joined or failed; the service does not wait for it. */
  firstStart: Promise<void>;
  /** For /readyz: rejects, saying why, while the consumer is not in its group. */
  check(): Promise<void>;
  /** Ends the watch, for shutdown. */
  stop(): void;
}

/**
 * Starts the Kafka server of `microservice` and keeps it running. A start fails while Kafka is
 * unreachable, and kafkajs restarts a crashed consumer only when the cause is retriable: around a
 * broker restart it can give up for good instead ("Failed to find group coordinator" while the
 * broker is still down), leaving a service that answers requests but never consumes again. Either
 * way this starts the server anew, backing off from `firstDelayMs` to 5 s as the outbox relay
 * does (a failed attempt costs a refused connection; a longer wait only delays consumption once
 * Kafka is back), until it runs; the service meanwhile serves requests and its outbox keeps
 * what they write.
 *
 * It tells `membership` when the consumer is in its group: after a join (the server's start,
 * kafkajs' own restart, a rebalance), once the first fetch has resolved its offsets; out of it
 * from a rebalance or a crash on.
 */
export function keepConsumerRunning(microservice: INestMicroservice, membership: ConsumerMembership, logger: RestartLogger, firstDelayMs = 1000): ConsumerRun {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let state = 'joining its group';
  membership.left();

  const watch = () => {
    const [, consumer] = microservice.unwrap<[Kafka, Consumer, Producer]>();
    // The server's start resolves once the consumer joined; its first fetch comes after.
    let joined = true;
    consumer.on(consumer.events.GROUP_JOIN, () => (joined = true));
    consumer.on(consumer.events.FETCH, () => {
      if (!joined) return;
      joined = false;
      membership.joined();
    });
    consumer.on(consumer.events.REBALANCING, () => {
      state = 'rejoining its group (rebalance)';
      membership.left();
    });
    consumer.on(consumer.events.CRASH, ({ payload }: ConsumerCrashEvent) => {
      state = `rejoining its group (${payload.error.message})`;
      membership.left();
      if (payload.restart || stopped) return; // kafkajs restarts it itself
      logger.error(`Kafka consumer ${payload.groupId} stopped for good (${payload.error.message}): starting it again`);
      scheduleStart(firstDelayMs);
    });
  };

  /** Starts the server; the error when it could not. */
  const tryStart = async (): Promise<Error | undefined> => {
    state = 'joining its group';
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
    state = `not started (${error.message}); retrying`;
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
      if (error) retry(error, Math.min(delayMs * 2, MAX_DELAY_MS));
      else logger.warn('Kafka consumer started again');
    }, delayMs);
  };

  return {
    firstStart: tryStart().then((error) => error && retry(error, firstDelayMs)),
    check: async () => {
      if (!membership.inGroup) throw new Error(state);
    },
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

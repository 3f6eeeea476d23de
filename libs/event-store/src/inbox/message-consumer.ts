import { Logger } from '@nestjs/common';
import type { KafkaContext } from '@nestjs/microservices';
import type { DataSource, EntityManager } from 'typeorm';
import { Counter } from 'prom-client';
import { InvalidMessageError, parseEventMessage, type EventEnvelope, type TopicContract } from '@trilha/contracts';
import { ATTR_ID_LOJA, requestContext, withSpanFrom } from '@trilha/observability';
import { holdingWritesAtCommit } from '../compact-transaction';
import { InboxBatcher, SharedTransactionFailed, type InboxOutcome } from './inbox-batcher';
import { kafkaMessageJson } from './kafka-value';
import { isForConsumer, MAX_BACKOFF_MS, ParkedMessages, type ConsumedMessage } from './parked-messages';
import { WriteBatcher } from './write-batcher';

const handled = new Counter({ name: 'trilha_messages_handled_total', help: 'Kafka messages handled', labelNames: ['consumer', 'outcome'] });

/** How a consumer retries a failing handler before it parks the message. */
export interface RetryPolicy {
  /**
   * Failures while the database answers, before the message is parked. While the database does
   * not answer there is nowhere to park, and the failure is the outage, not the message: the
   * consumer keeps retrying.
   */
  triesBeforeParking: number;
  /** The first wait; each next one doubles, up to 5 s. */
  firstBackoffMs: number;
}

/** About 25 s of retrying before a message is parked. */
const DEFAULT_RETRY: RetryPolicy = { triesBeforeParking: 10, firstBackoffMs: 100 };


export type MessageHandler<T extends EventEnvelope> = (event: T, manager: EntityManager) => Promise<void>;

export interface ConsumeOptions {
  /**
   * The handler's writes come out the same when messages are delivered again in their order
   * (after a crash, Kafka redelivers everything since the last committed offset): upserts of the
   * values the message carries, inserts that ignore a repeat. It then runs without the inbox
   * and without a transaction of the consumer's, and what it writes with `writeAtCommit` is
   * sent with the writes of the other partitions' messages handled at the same time
   * (`WriteBatcher`): one round trip for a fetch's worth of messages, where the inbox's batch
   * (`InboxBatcher`) takes two.
   */
  idempotent?: boolean;
}

/**
 * Consumes a Kafka message exactly once in effect: the event id goes into the inbox table
 * in the same transaction as the handler's writes, so a redelivery changes nothing (or, for
 * handlers declared `idempotent`, their writes themselves make it so).
 *
 * Nothing is skipped: a message is handled, or parked (`ParkedMessages`) for an operator to see
 * and replay, before `consume` returns and Kafka may commit its offset.
 * - An invalid message (not JSON, bad envelope, unknown type, a `schemaVersion` its contract
 *   does not list, bad payload) is parked at once: it can never succeed as it is, and it must
 *   not block its partition. Fields the contract does not declare are no reason: they are
 *   stripped (`parseEventMessage`, a tolerant reader).
 * - Event types the handler does not act on never reach it: its `@EventPattern` names the
 *   ones it does (`EventPatternExtras`), and `KafkaServer` passes over the rest unread.
 * - Any other failure is retried with backoff: for ever while the database does not answer (the
 *   partition waits for the outage to end, keeping the store's events in order), and up to
 *   `RetryPolicy.triesBeforeParking` failures while it does (a bug, data the handler cannot take), after
 *   which the message is parked and the partition goes on.
 * - A replayed message (`REPLAY_FOR_HEADER`) is for the consumer that parked it; others pass over it.
 * - The handler runs inside a span continuing the message's `traceparent`, with the event's
 *   correlation id and store on every log line.
 */
export class MessageConsumer {
  private readonly logger = new Logger(MessageConsumer.name);
  private stopping = false;
  private readonly writeBatcher: WriteBatcher;
  private readonly inboxBatcher: InboxBatcher;
  private readonly parked: ParkedMessages;
  /**
   * By consumer and partition, the last message handed over that has not finished. Messages of
   * a fetched batch are handed over before the earlier ones finish (`KafkaServer.handleBatch`);
   * each tries again only once the message before it finished, so a partition's messages take
   * effect in their order even when their shared transaction fails.
   */
  private readonly unfinished = new Map<string, Promise<void>>();

  constructor(private readonly dataSource: DataSource, private readonly retry: RetryPolicy = DEFAULT_RETRY) {
    this.writeBatcher = new WriteBatcher(dataSource);
    this.inboxBatcher = new InboxBatcher(dataSource);
    this.parked = new ParkedMessages(dataSource);
  }

  stop(): void {
    this.stopping = true;
  }

  async consume<T extends EventEnvelope>(
    consumer: string,
    context: KafkaContext,
    contract: TopicContract,
    handler: MessageHandler<T>,
    options: ConsumeOptions = {},
  ): Promise<void> {
    const message = context.getMessage();
    const consumed = { topic: context.getTopic(), partition: context.getPartition(), message };
    if (!isForConsumer(message, consumer)) return;
    let event: T;
    try {
      event = parseEventMessage<T>(kafkaMessageJson(message.value), contract);
    } catch (error) {
      const problems = error instanceof InvalidMessageError ? error.problems : [(error as Error).message];
      await this.park(consumer, consumed, `invalid message: ${problems.join('; ')}`);
      return;
    }
    const traceparent = headerValue(message.headers?.traceparent) ?? event.traceparent;
    const attributes = {
      'messaging.system': 'kafka',
      'messaging.operation.type': 'process',
      'messaging.destination.name': consumed.topic,
      'messaging.destination.partition.id': String(consumed.partition),
      'messaging.kafka.offset': Number(message.offset),
      'messaging.kafka.message.key': message.key === null ? event.idLoja : String(message.key),
      'messaging.consumer.group.name': consumer,
      'messaging.message.id': event.id,
      [ATTR_ID_LOJA]: event.idLoja,
    };
    const partition = `${consumer}/${consumed.topic}/${consumed.partition}`;
    const previous = this.unfinished.get(partition);
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    this.unfinished.set(partition, finished);
    try {
      await withSpanFrom(`process ${consumed.topic}`, traceparent, { kind: 'consumer', attributes }, () =>
        requestContext.run({ correlationId: event.correlationId, causationId: event.id, idLoja: event.idLoja }, async () => {
          const handle = options.idempotent ? this.asIs(handler) : this.throughInbox(consumer, handler);
          const failure = await this.handleWithRetry(consumer, event, handle, previous);
          if (failure) await this.park(consumer, consumed, `handler failed ${this.retry.triesBeforeParking} times: ${failure.message}`);
        }),
      );
    } finally {
      finish();
      if (this.unfinished.get(partition) === finished) this.unfinished.delete(partition);
    }
  }

  /** Parks a message; its offset waits until it is kept (`ParkedMessages.parkUntilKept`). */
  private async park(consumer: string, consumed: ConsumedMessage, reason: string): Promise<void> {
    await this.parked.parkUntilKept(consumer, consumed, reason, () => !this.stopping, this.retry.firstBackoffMs);
    handled.inc({ consumer, outcome: 'parked' });
  }

  /**
   * Runs the handler's writes in one transaction with the event's inbox row; a repeat is
   * skipped. The first try shares its transaction with the messages of the other partitions
   * handled at the same time (`InboxBatcher`); a retry runs alone, so a message that keeps
   * failing fails no one else's batch.
   */
  private throughInbox<T extends EventEnvelope>(consumer: string, handler: MessageHandler<T>): (event: T) => Promise<InboxOutcome> {
    let tries = 0;
    return (event) => this.inboxBatcher.handle(consumer, event, handler, tries++ > 0);
  }

  private asIs<T extends EventEnvelope>(handler: MessageHandler<T>): (event: T) => Promise<InboxOutcome> {
    return async (event) => {
      const manager = this.dataSource.createEntityManager();
      const { writes } = await holdingWritesAtCommit(manager, () => handler(event, manager));
      await this.writeBatcher.send(writes);
      return 'handled';
    };
  }

  /**
   * Handles the event, retrying as the class says, each retry once `previous` (the partition's
   * message before it) finished; returns the last error if it gave up. A shared transaction's
   * failure is no failure of this message's: it is tried alone at once.
   */
  private async handleWithRetry<T extends EventEnvelope>(
    consumer: string,
    event: T,
    handle: (event: T) => Promise<InboxOutcome>,
    previous: Promise<void> | undefined,
  ): Promise<Error | undefined> {
    let backoff = this.retry.firstBackoffMs;
    for (let failures = 0, tries = 0; ; tries++) {
      try {
        if (tries > 0) await previous;
        const outcome = await handle(event);
        handled.inc({ consumer, outcome });
        this.logger.log({ msg: `${outcome} ${event.type}`, consumer, eventId: event.id });
        return undefined;
      } catch (error) {
        if (this.stopping) throw error;
        if (error instanceof SharedTransactionFailed) continue;
        if (await this.databaseAnswers()) failures += 1;
        if (failures >= this.retry.triesBeforeParking) return error as Error;
        this.logger.warn({ msg: `handling ${event.type} failed, retrying in ${backoff} ms`, consumer, eventId: event.id, error: (error as Error).message });
        await new Promise((resolve) => setTimeout(resolve, backoff));
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
    }
  }

  private databaseAnswers(): Promise<boolean> {
    return this.dataSource.query('SELECT 1').then(() => true, () => false);
  }
}

function headerValue(value: Buffer | string | (Buffer | string)[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : String(first);
}

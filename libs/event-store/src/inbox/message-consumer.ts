import { Logger } from '@nestjs/common';
import type { KafkaContext } from '@nestjs/microservices';
import type { DataSource, EntityManager } from 'typeorm';
import { Counter } from 'prom-client';
import { InvalidMessageError, parseEventMessage, type EventEnvelope, type TopicContract } from '@trilha/contracts';
import { requestContext, withSpanFrom } from '@trilha/observability';
import { holdingWritesAtCommit } from '../event-store';
import { kafkaMessageJson } from './kafka-value';
import { WriteBatcher } from './write-batcher';

const handled = new Counter({ name: 'trilha_messages_handled_total', help: 'Kafka messages handled', labelNames: ['consumer', 'outcome'] });

const MAX_BACKOFF_MS = 5000;

type Outcome = 'handled' | 'duplicate';

export type MessageHandler<T extends EventEnvelope> = (event: T, manager: EntityManager) => Promise<void>;

export interface ConsumeOptions {
  /**
   * The handler's writes come out the same when messages are delivered again in their order
   * (after a crash, Kafka redelivers everything since the last committed offset): upserts of the
   * values the message carries, inserts that ignore a repeat. It then runs without the inbox
   * and without a transaction of the consumer's, and what it writes with `writeAtCommit` is
   * sent with the writes of the other partitions' messages handled at the same time
   * (`WriteBatcher`): one round trip for a fetch's worth of messages, instead of four each.
   */
  idempotent?: boolean;
}

/**
 * Consumes a Kafka message exactly once in effect: the event id goes into the inbox table
 * in the same transaction as the handler's writes, so a redelivery changes nothing (or, for
 * handlers declared `idempotent`, their writes themselves make it so).
 *
 * - An invalid message (bad envelope, unknown type, bad payload) is logged and skipped: it
 *   can never succeed, and it must not block its partition.
 * - Event types the handler does not act on never reach it: its `@EventPattern` names the
 *   ones it does (`EventPatternExtras`), and `KafkaServer` passes over the rest unread.
 * - Any other failure (database down, a bug) is retried with backoff until it succeeds, so
 *   the partition waits rather than losing the event or reordering the store's events.
 * - The handler runs inside a span continuing the message's `traceparent`, with the event's
 *   correlation id and store on every log line.
 */
export class MessageConsumer {
  private readonly logger = new Logger(MessageConsumer.name);
  private stopping = false;
  private readonly writeBatcher: WriteBatcher;

  constructor(private readonly dataSource: DataSource) {
    this.writeBatcher = new WriteBatcher(dataSource);
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
    const where = { topic: context.getTopic(), partition: context.getPartition(), offset: message.offset };
    let event: T;
    try {
      event = parseEventMessage<T>(kafkaMessageJson(message.value), contract);
    } catch (error) {
      const problems = error instanceof InvalidMessageError ? error.problems : [(error as Error).message];
      this.logger.error({ msg: 'rejected invalid message', consumer, ...where, problems });
      handled.inc({ consumer, outcome: 'rejected' });
      return;
    }
    const traceparent = headerValue(message.headers?.traceparent) ?? event.traceparent;
    await withSpanFrom(`process ${where.topic}`, traceparent, 'consumer', { 'messaging.consumer.group.name': consumer, 'messaging.message.id': event.id }, () =>
      requestContext.run({ correlationId: event.correlationId, causationId: event.id, idLoja: event.idLoja }, () =>
        this.handleWithRetry(consumer, event, options.idempotent ? this.asIs(handler) : this.throughInbox(consumer, handler)),
      ),
    );
  }

  /** Runs the handler's writes in one transaction with the event's inbox row; a repeat is skipped. */
  private throughInbox<T extends EventEnvelope>(consumer: string, handler: MessageHandler<T>): (event: T) => Promise<Outcome> {
    return (event) =>
      this.dataSource.transaction(async (manager) => {
        const inserted = await manager.query(
          `INSERT INTO inbox (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING event_id`,
          [consumer, event.id],
        );
        if (inserted.length === 0) return 'duplicate';
        await handler(event, manager);
        return 'handled';
      });
  }

  private asIs<T extends EventEnvelope>(handler: MessageHandler<T>): (event: T) => Promise<Outcome> {
    return async (event) => {
      const manager = this.dataSource.createEntityManager();
      const { writes } = await holdingWritesAtCommit(manager, () => handler(event, manager));
      await this.writeBatcher.send(writes);
      return 'handled';
    };
  }

  private async handleWithRetry<T extends EventEnvelope>(consumer: string, event: T, handle: (event: T) => Promise<Outcome>): Promise<void> {
    let backoff = 100;
    for (;;) {
      try {
        const outcome = await handle(event);
        handled.inc({ consumer, outcome });
        this.logger.log({ msg: `${outcome} ${event.type}`, consumer, eventId: event.id });
        return;
      } catch (error) {
        if (this.stopping) throw error;
        this.logger.warn({ msg: `handling ${event.type} failed, retrying in ${backoff} ms`, consumer, eventId: event.id, error: (error as Error).message });
        await new Promise((resolve) => setTimeout(resolve, backoff));
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
    }
  }
}

function headerValue(value: Buffer | string | (Buffer | string)[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : String(first);
}

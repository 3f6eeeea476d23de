import { ServerKafka } from '@nestjs/microservices';
import type { Consumer, EachBatchPayload, EachMessagePayload } from 'kafkajs';
import { Counter } from 'prom-client';
import { fetchedBatchMember } from './fetched-batch';

const passedOver = new Counter({
  name: 'trilha_messages_passed_over_total',
  help: 'Kafka messages of event types no handler of the service acts on',
  labelNames: ['topic', 'type'],
});

/** The most messages of one partition handed over together, to share an inbox transaction. */
const HANDED_OVER_TOGETHER = 100;

/** What a message handler declares beside its topic: `@EventPattern(topic, { eventTypes })`. */
export interface EventPatternExtras {
  /** The event types the handler acts on; others are passed over unread. Default: all. */
  eventTypes?: readonly string[];
}

/**
 * Nest's Kafka server, passing over events no handler acts on before Nest decodes them. A
 * topic carries every event type of its context, and most services need few of them (the
 * gateway reads every store event for four of its types, the atendimento service for one): the
 * relay names each message's type in its `event-type` header, so the rest cost neither JSON
 * parsing nor Nest's handler pipeline. A message without the header is handed over as before.
 *
 * A partition's fetched messages are handed over together (`handleBatch`), so that the ones
 * going through the inbox share one transaction: under a backlog, one commit for up to
 * `HANDED_OVER_TOGETHER` messages of each partition instead of one each.
 */
export class KafkaServer extends ServerKafka {
  private readonly routes = new Map<string, string>();

  /**
   * Nest looks a message's handler up three times, each time trying the topic as JSON (and
   * catching the error a topic name throws): ≈ 5 % of a busy consumer's CPU. Topics are few.
   */
  override getRouteFromPattern(pattern: string): string {
    let route = this.routes.get(pattern);
    if (route === undefined) this.routes.set(pattern, (route = super.getRouteFromPattern(pattern)));
    return route;
  }

  override async bindEvents(consumer: Consumer): Promise<void> {
    const topics = [...this.messageHandlers.keys()];
    if (topics.length > 0) await consumer.subscribe({ ...this.options.subscribe, topics });
    // Offsets are resolved here, only for messages whose handling finished.
    await consumer.run({ ...this.options.run, eachBatchAutoResolve: false, eachBatch: (payload) => this.handleBatch(payload) });
  }

  /**
   * Hands a partition's messages over in their order, each once the one before it joined an
   * inbox transaction (`FetchedBatchMember`) or finished; that transaction runs once the last
   * of them is handed over. A message's offset is resolved once it and every message before it
   * finished; after a failure nothing more is handed over, and kafkajs fetches from there again. Handlers keep each partition's order themselves when a shared transaction fails
   * (`MessageConsumer`): each message is then tried alone after the one before it finished.
   */
  async handleBatch({ batch, resolveOffset, heartbeat, pause, isRunning, isStale }: EachBatchPayload): Promise<void> {
    for (let start = 0; start < batch.messages.length && isRunning() && !isStale(); start += HANDED_OVER_TOGETHER) {
      const messages = batch.messages.slice(start, start + HANDED_OVER_TOGETHER);
      let handOver!: () => void;
      const handedOver = new Promise<void>((resolve) => (handOver = resolve));
      const handlings: Promise<unknown>[] = [];
      let failed = false;
      for (const message of messages) {
        if (failed) break;
        let joined!: () => void;
        const joining = new Promise<void>((resolve) => (joined = resolve));
        const handling = fetchedBatchMember.run({ handedOver, joined }, () =>
          this.handleMessage({ topic: batch.topic, partition: batch.partition, message, heartbeat, pause }),
        );
        handlings.push(handling);
        await Promise.race([joining, handling.catch(() => void (failed = true))]);
      }
      handOver();
      for (const [index, outcome] of (await Promise.allSettled(handlings)).entries()) {
        if (outcome.status === 'rejected') throw outcome.reason;
        resolveOffset(messages[index].offset);
      }
      await heartbeat();
    }
  }

  override async handleMessage(payload: EachMessagePayload): Promise<unknown> {
    const eventTypes = (this.getHandlerByPattern(payload.topic)?.extras as EventPatternExtras | undefined)?.eventTypes;
    const type = payload.message.headers?.['event-type']?.toString();
    if (eventTypes && type !== undefined && !eventTypes.includes(type)) {
      passedOver.inc({ topic: payload.topic, type });
      return;
    }
    return super.handleMessage(payload);
  }
}

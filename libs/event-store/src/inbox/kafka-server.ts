import { ServerKafka } from '@nestjs/microservices';
import type { EachMessagePayload } from 'kafkajs';
import { Counter } from 'prom-client';

const passedOver = new Counter({
  name: 'trilha_messages_passed_over_total',
  help: 'Kafka messages of event types no handler of the service acts on',
  labelNames: ['topic', 'type'],
});

/** What a message handler declares beside its topic: `@EventPattern(topic, { eventTypes })`. */
export interface EventPatternExtras {
  /** The event types the handler acts on; others are passed over unread. Default: all. */
  eventTypes?: readonly string[];
}

/**
 * Nest's Kafka server, passing over events no handler acts on before Nest decodes them. A
 * topic carries every event type of its context, and most services need few of them (the
 * gateway reads every store event for three of its types, the atendimento service for one): the
 * relay names each message's type in its `event-type` header, so the rest cost neither JSON
 * parsing nor Nest's handler pipeline. A message without the header is handed over as before.
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

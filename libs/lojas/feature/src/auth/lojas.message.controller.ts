import { Controller, Logger } from '@nestjs/common';
import { Ctx, EventPattern, KafkaContext } from '@nestjs/microservices';
import { LOJA_EVENT_TYPES, LOJAS_CONTRACT, parseEventMessage, TOPICS, type LojaMessage } from '@trilha/contracts';
import { kafkaMessageJson, type EventPatternExtras } from '@trilha/event-store';
import { LojaStatusCache } from './loja-status.cache';

/**
 * Store events from Kafka keep this replica's token checks current. Each replica reads the
 * topic in its own consumer group, so every replica sees every event. Only the events that
 * change whether a store may call reach it; the app's removal is the delivery service's.
 */
@Controller()
export class LojasMessageController {
  private readonly logger = new Logger(LojasMessageController.name);

  constructor(private readonly cache: LojaStatusCache) {}

  @EventPattern(TOPICS.lojas, { eventTypes: [LOJA_EVENT_TYPES.criada, LOJA_EVENT_TYPES.desativada, LOJA_EVENT_TYPES.ativada] } satisfies EventPatternExtras)
  onLojaEvent(@Ctx() context: KafkaContext): void {
    try {
      const event = parseEventMessage<LojaMessage>(kafkaMessageJson(context.getMessage().value), LOJAS_CONTRACT);
      this.cache.applyFromKafka(event);
    } catch (error) {
      this.logger.error({ msg: 'rejected invalid store event', offset: context.getMessage().offset, error: (error as Error).message });
    }
  }
}

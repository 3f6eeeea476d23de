import { Controller, type OnApplicationShutdown } from '@nestjs/common';
import { Ctx, EventPattern, KafkaContext } from '@nestjs/microservices';
import { LOJA_EVENT_TYPES, LOJAS_CONTRACT, parseEventMessage, TOPICS, type LojaMessage } from '@trilha/contracts';
import { isForConsumer, kafkaMessageJson, ParkedMessages, type EventPatternExtras } from '@trilha/event-store';
import { LojaStatusCache } from './loja-status.cache';

/**
 * Store events from Kafka keep this replica's token checks current. Each replica reads the
 * topic in its own consumer group, so every replica sees every event. Only the events that
 * change whether a store may call reach it; the app's removal is the delivery service's.
 * A message it cannot read is parked (its offset waits until it is kept), and the cache forgets
 * every store, so that each is read again from the database, which the gateway's own commands
 * keep current.
 */
@Controller()
export class LojasMessageController implements OnApplicationShutdown {
  static readonly CONSUMER = 'api-gateway.loja-status';
  private stopping = false;

  constructor(
    private readonly cache: LojaStatusCache,
    private readonly parked: ParkedMessages,
  ) {}

  @EventPattern(TOPICS.lojas, {
    eventTypes: [LOJA_EVENT_TYPES.criada, LOJA_EVENT_TYPES.desativada, LOJA_EVENT_TYPES.ativada, LOJA_EVENT_TYPES.codigoRotacionado],
  } satisfies EventPatternExtras)
  async onLojaEvent(@Ctx() context: KafkaContext): Promise<void> {
    const message = context.getMessage();
    if (!isForConsumer(message, LojasMessageController.CONSUMER)) return;
    let event: LojaMessage;
    try {
      event = parseEventMessage<LojaMessage>(kafkaMessageJson(message.value), LOJAS_CONTRACT);
    } catch (error) {
      this.cache.forgetAll();
      const consumed = { topic: context.getTopic(), partition: context.getPartition(), message };
      await this.parked.parkUntilKept(LojasMessageController.CONSUMER, consumed, `invalid message: ${(error as Error).message}`, () => !this.stopping);
      return;
    }
    this.cache.applyFromKafka(event);
  }

  onApplicationShutdown(): void {
    this.stopping = true;
  }
}

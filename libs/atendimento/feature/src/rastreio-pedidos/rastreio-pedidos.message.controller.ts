import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, KafkaContext } from '@nestjs/microservices';
import { TOPICS, TRACKING_CONTRACT, type TrackingMessage } from '@trilha/contracts';
import { MessageConsumer } from '@trilha/event-store';
import { aplicarEventoDeRastreio } from './aplicar-evento-de-rastreio';

export const RASTREIO_PEDIDOS_CONSUMER = 'atendimento.rastreio-pedidos';

/**
 * Keeps the agents' view of the stores' tracking from tracking.events.v1. Every tracking event
 * of every store comes here, so it is consumed without the inbox: applying a store's messages
 * again in order leaves the view as it was (see `aplicarEventoDeRastreio`).
 */
@Controller()
export class RastreioPedidosMessageController {
  constructor(private readonly consumer: MessageConsumer) {}

  @EventPattern(TOPICS.tracking)
  onTrackingEvent(@Ctx() context: KafkaContext): Promise<void> {
    return this.consumer.consume<TrackingMessage>(RASTREIO_PEDIDOS_CONSUMER, context, TRACKING_CONTRACT, aplicarEventoDeRastreio, { idempotent: true });
  }
}

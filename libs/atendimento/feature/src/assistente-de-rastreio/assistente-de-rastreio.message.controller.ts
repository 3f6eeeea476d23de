import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, KafkaContext } from '@nestjs/microservices';
import { LOJA_EVENT_TYPES, LOJAS_CONTRACT, TOPICS, type LojaMessage } from '@trilha/contracts';
import { MessageConsumer, type EventPatternExtras } from '@trilha/event-store';
import { AssistenteDeRastreioHandler } from './assistente-de-rastreio.handler';

export const ASSISTENTE_DE_RASTREIO_CONSUMER = 'atendimento.assistente-de-rastreio';

/**
 * Gives every store its built-in "Assistente de rastreio" when the store is created. The
 * service reads lojas.events.v1 from the beginning, so stores created before it existed get
 * theirs too.
 */
@Controller()
export class AssistenteDeRastreioMessageController {
  constructor(
    private readonly consumer: MessageConsumer,
    private readonly handler: AssistenteDeRastreioHandler,
  ) {}

  @EventPattern(TOPICS.lojas, { eventTypes: [LOJA_EVENT_TYPES.criada] } satisfies EventPatternExtras)
  onLojaEvent(@Ctx() context: KafkaContext): Promise<void> {
    return this.consumer.consume<LojaMessage>(ASSISTENTE_DE_RASTREIO_CONSUMER, context, LOJAS_CONTRACT, async (event) => {
      if (event.type === LOJA_EVENT_TYPES.criada) await this.handler.execute(event.data.idLoja, event.data.criadaEm);
    });
  }
}

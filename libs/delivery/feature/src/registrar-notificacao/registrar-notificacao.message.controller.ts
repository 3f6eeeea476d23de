import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, KafkaContext } from '@nestjs/microservices';
import { ATENDIMENTO_CONTRACT, LOJA_EVENT_TYPES, LOJAS_CONTRACT, TOPICS, type AtendimentoMessage, type LojaMessage } from '@trilha/contracts';
import { MessageConsumer } from '@trilha/event-store';
import { registrarNotificacao } from './registrar-notificacao';

export const NOTIFICACOES_CONSUMER = 'delivery.notificacoes';

/**
 * The events stores are notified of (spec 6.1): the conversation lifecycle from
 * `atendimento.events.v1`, and `aplicativo.removido` from `lojas.events.v1`.
 */
@Controller()
export class RegistrarNotificacaoMessageController {
  constructor(private readonly consumer: MessageConsumer) {}

  @EventPattern(TOPICS.atendimento)
  onAtendimentoEvent(@Ctx() context: KafkaContext): Promise<void> {
    return this.consumer.consume<AtendimentoMessage>(NOTIFICACOES_CONSUMER, context, ATENDIMENTO_CONTRACT, async (event, manager) => {
      await registrarNotificacao(manager, event);
    });
  }

  @EventPattern(TOPICS.lojas)
  onLojaEvent(@Ctx() context: KafkaContext): Promise<void> {
    return this.consumer.consume<LojaMessage>(
      NOTIFICACOES_CONSUMER,
      context,
      LOJAS_CONTRACT,
      async (event, manager) => {
        await registrarNotificacao(manager, event);
      },
      [LOJA_EVENT_TYPES.aplicativoRemovido],
    );
  }
}

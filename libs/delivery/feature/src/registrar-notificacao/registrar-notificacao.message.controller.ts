import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, KafkaContext } from '@nestjs/microservices';
import { ATENDIMENTO_CONTRACT, TOPICS, type AtendimentoMessage } from '@trilha/contracts';
import { MessageConsumer, type EventPatternExtras } from '@trilha/event-store';
import { Despachante } from '../despachar-entregas/despachante';
import { eventosNotificados, registrarNotificacao } from './registrar-notificacao';

export const NOTIFICACOES_CONSUMER = 'delivery.notificacoes';

/**
 * The notifications of `atendimento.events.v1` (NOTIFICATIONS; docs/API.md section 7): only
 * their event types reach it. The notifications of `lojas.events.v1` are recorded by that
 * topic's consumer (lojas-conhecidas), in the transaction of the service's view of the store.
 */
@Controller()
export class RegistrarNotificacaoMessageController {
  constructor(
    private readonly consumer: MessageConsumer,
    private readonly despachante: Despachante,
  ) {}

  @EventPattern(TOPICS.atendimento, { eventTypes: eventosNotificados(TOPICS.atendimento) } satisfies EventPatternExtras)
  onAtendimentoEvent(@Ctx() context: KafkaContext): Promise<void> {
    return this.consumer.consume<AtendimentoMessage>(NOTIFICACOES_CONSUMER, context, ATENDIMENTO_CONTRACT, async (event, manager) => {
      await registrarNotificacao(manager, TOPICS.atendimento, event, this.despachante.claimOnRecord(event.idLoja));
    });
  }
}

import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, KafkaContext } from '@nestjs/microservices';
import { ATENDIMENTO_CONTRACT, TOPICS, type AtendimentoMessage } from '@trilha/contracts';
import { MessageConsumer } from '@trilha/event-store';
import { Despachante } from '../despachar-entregas/despachante';
import { registrarNotificacao } from './registrar-notificacao';

export const NOTIFICACOES_CONSUMER = 'delivery.notificacoes';

/**
 * The conversation lifecycle from `atendimento.events.v1`, which stores are notified of
 * (docs/API.md section 7). The other notified event, `aplicativo.removido`, is recorded by the consumer of
 * `lojas.events.v1` (lojas-conhecidas, `LojasConhecidasERemocaoDoAplicativoMessageController`).
 */
@Controller()
export class RegistrarNotificacaoMessageController {
  constructor(
    private readonly consumer: MessageConsumer,
    private readonly despachante: Despachante,
  ) {}

  @EventPattern(TOPICS.atendimento)
  onAtendimentoEvent(@Ctx() context: KafkaContext): Promise<void> {
    return this.consumer.consume<AtendimentoMessage>(NOTIFICACOES_CONSUMER, context, ATENDIMENTO_CONTRACT, async (event, manager) => {
      await registrarNotificacao(manager, event, this.despachante.reivindicacaoAoRegistrar(event.idLoja));
    });
  }
}

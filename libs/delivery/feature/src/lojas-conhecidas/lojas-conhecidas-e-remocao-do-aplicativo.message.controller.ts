import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, KafkaContext } from '@nestjs/microservices';
import { LOJA_EVENT_TYPES, LOJAS_CONTRACT, TOPICS, type LojaMessage } from '@trilha/contracts';
import { MessageConsumer, type EventPatternExtras } from '@trilha/event-store';
import { Despachante } from '../despachar-entregas/despachante';
import { eventosNotificados, registrarNotificacao } from '../registrar-notificacao/registrar-notificacao';
import { manterLojaConhecida } from './manter-loja-conhecida';

export const LOJAS_CONHECIDAS_CONSUMER = 'delivery.lojas-conhecidas';

/** The store events the service's view of stores is kept from. */
const LOJAS_CONHECIDAS_EVENTS = [LOJA_EVENT_TYPES.criada, LOJA_EVENT_TYPES.desativada, LOJA_EVENT_TYPES.ativada, LOJA_EVENT_TYPES.aplicativoRemovido];

/**
 * Two things from `lojas.events.v1`, in one transaction per store event (one commit, not two):
 * the service's view of stores (`manterLojaConhecida`), and the notifications NOTIFICATIONS
 * names on the topic (docs/API.md section 7, `registrarNotificacao`). Other store events (a
 * code rotation, which concerns only the gateway's tokens) are passed over.
 */
@Controller()
export class LojasConhecidasERemocaoDoAplicativoMessageController {
  constructor(
    private readonly consumer: MessageConsumer,
    private readonly despachante: Despachante,
  ) {}

  @EventPattern(TOPICS.lojas, { eventTypes: [...new Set([...LOJAS_CONHECIDAS_EVENTS, ...eventosNotificados(TOPICS.lojas)])] } satisfies EventPatternExtras)
  onLojaEvent(@Ctx() context: KafkaContext): Promise<void> {
    return this.consumer.consume<LojaMessage>(LOJAS_CONHECIDAS_CONSUMER, context, LOJAS_CONTRACT, async (event, manager) => {
      // The notification first: it takes the store's delivery lock, which comes before any row lock.
      await registrarNotificacao(manager, TOPICS.lojas, event, this.despachante.claimOnRecord(event.idLoja));
      await manterLojaConhecida(event, manager);
    });
  }
}

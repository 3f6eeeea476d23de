import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, KafkaContext } from '@nestjs/microservices';
import type { EntityManager } from 'typeorm';
import { LOJAS_CONTRACT, TOPICS, type LojaMessage } from '@trilha/contracts';
import { MessageConsumer } from '@trilha/event-store';
import { registrarNotificacao } from '../registrar-notificacao/registrar-notificacao';

export const LOJAS_CONHECIDAS_CONSUMER = 'delivery.lojas-conhecidas';

/**
 * The delivery service's view of stores, built from `lojas.events.v1`: which stores exist and
 * are active, and when the app was removed from them. The removal is also a notification to
 * the store (docs/API.md section 7), recorded in the same transaction: one commit per store event, not two.
 */
@Controller()
export class LojasConhecidasMessageController {
  constructor(private readonly consumer: MessageConsumer) {}

  @EventPattern(TOPICS.lojas)
  onLojaEvent(@Ctx() context: KafkaContext): Promise<void> {
    return this.consumer.consume<LojaMessage>(LOJAS_CONHECIDAS_CONSUMER, context, LOJAS_CONTRACT, project);
  }
}

async function project(event: LojaMessage, manager: EntityManager): Promise<void> {
  switch (event.type) {
    case 'loja.criada':
      await manager.query(
        `INSERT INTO lojas (id_loja, nome, ativa, atualizada_em) VALUES ($1, $2, true, $3)
         ON CONFLICT (id_loja) DO UPDATE SET nome = EXCLUDED.nome, atualizada_em = EXCLUDED.atualizada_em`,
        [event.data.idLoja, event.data.nome, event.occurredAt],
      );
      return;
    case 'loja.desativada':
    case 'loja.ativada':
      await manager.query(`UPDATE lojas SET ativa = $2, atualizada_em = $3 WHERE id_loja = $1`, [
        event.data.idLoja,
        event.type === 'loja.ativada',
        event.occurredAt,
      ]);
      return;
    case 'aplicativo.removido':
      // The notification first: it takes the store's delivery lock, which comes before any row lock.
      await registrarNotificacao(manager, event);
      await manager.query(`UPDATE lojas SET aplicativo_removido_em = $2, atualizada_em = $2 WHERE id_loja = $1`, [
        event.data.idLoja,
        event.data.dataRemocao,
      ]);
      return;
  }
}

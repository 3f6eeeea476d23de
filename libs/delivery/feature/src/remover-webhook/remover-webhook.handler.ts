import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { travarLojas } from '../shared/banco';
import { enfileirar } from '../shared/fila';

/**
 * DELETE /webhook: without a webhook every event goes to the queue (CONTRACT.md section 7), so
 * the deliveries still pending move there too, in the same transaction: nothing is lost.
 * Resends asked of finished deliveries are dropped.
 */
@Injectable()
export class RemoverWebhookHandler {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async execute(idLoja: number): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await travarLojas(manager, [idLoja]);
      await manager.query(`DELETE FROM webhooks WHERE id_loja = $1`, [idLoja]);
      // TypeORM answers a DELETE … RETURNING with [rows, count].
      const [pendentes]: [{ id_evento: string; evento: string; data: object; tentativas: number; posicao: string }[], number] = await manager.query(
        `DELETE FROM entregas WHERE id_loja = $1 AND status = 'pendente' RETURNING id_evento, evento, data, tentativas, posicao`,
        [idLoja],
      );
      // In the order the events occurred; `entregaFalhou` when an attempt had already failed.
      pendentes.sort((a, b) => Number(a.posicao) - Number(b.posicao));
      await enfileirar(
        manager,
        pendentes.map((entrega) => ({ idLoja, idEvento: entrega.id_evento, evento: entrega.evento, data: entrega.data, entregaFalhou: entrega.tentativas > 0 })),
      );
      await manager.query(`UPDATE entregas SET proxima_em = NULL, lease = NULL, manual = false WHERE id_loja = $1 AND manual`, [idLoja]);
    });
  }
}

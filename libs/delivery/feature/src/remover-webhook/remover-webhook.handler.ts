import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { travarLojas, COLUNAS_RETIRADA, enfileirarRetiradas, type EntregaRetirada } from '../shared';

/**
 * DELETE /webhook: without a webhook every event goes to the queue (docs/API.md section 7), so
 * the deliveries still pending move there too, in the same transaction: nothing is lost.
 * A delivery whose attempt is in flight (it holds a lease) is left to that attempt, whose
 * outcome decides: a 200 delivers it, a failure sends it to the queue (EntregasDevidas.concluir),
 * so its event is never both delivered and queued. Resends and recoveries asked of finished deliveries are dropped.
 */
@Injectable()
export class RemoverWebhookHandler {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async execute(idLoja: number): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await travarLojas(manager, [idLoja]);
      await manager.query(`DELETE FROM webhooks WHERE id_loja = $1`, [idLoja]);
      // TypeORM answers a DELETE … RETURNING with [rows, count].
      const [retiradas]: [EntregaRetirada[], number] = await manager.query(
        `DELETE FROM entregas WHERE id_loja = $1 AND status = 'pendente' AND lease IS NULL RETURNING ${COLUNAS_RETIRADA}`,
        [idLoja],
      );
      await enfileirarRetiradas(manager, retiradas);
      await manager.query(`UPDATE entregas SET proxima_em = NULL, lease = NULL, manual = false, recuperar = false WHERE id_loja = $1 AND (manual OR recuperar)`, [idLoja]);
    });
  }
}

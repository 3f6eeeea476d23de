import type { EntityManager } from 'typeorm';
import type { LojaMessage } from '@trilha/contracts';
import { writeAtCommit } from '@trilha/event-store';

/**
 * The delivery service's view of stores (`lojas`), built from `lojas.events.v1`: which stores
 * exist and are active, and when the app was removed from them. Its writes read nothing back:
 * in the consumer they travel with the COMMIT.
 */
export async function manterLojaConhecida(event: LojaMessage, manager: EntityManager): Promise<void> {
  switch (event.type) {
    case 'loja.criada':
      await writeAtCommit(
        manager,
        `INSERT INTO lojas (id_loja, nome, ativa, atualizada_em) VALUES ($1, $2, true, $3)
         ON CONFLICT (id_loja) DO UPDATE SET nome = EXCLUDED.nome, atualizada_em = EXCLUDED.atualizada_em`,
        [event.data.idLoja, event.data.nome, event.occurredAt],
      );
      return;
    case 'loja.desativada':
    case 'loja.ativada':
      await writeAtCommit(manager, `UPDATE lojas SET ativa = $2, atualizada_em = $3 WHERE id_loja = $1`, [
        event.data.idLoja,
        event.type === 'loja.ativada',
        event.occurredAt,
      ]);
      return;
    case 'aplicativo.removido':
      await writeAtCommit(manager, `UPDATE lojas SET aplicativo_removido_em = $2, atualizada_em = $2 WHERE id_loja = $1`, [
        event.data.idLoja,
        event.data.dataRemocao,
      ]);
      return;
  }
}

import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { writeAtCommit, type Projection, type AppendedEvent } from '@trilha/event-store';
import type { LojaEvent } from '@trilha/lojas-domain';

export interface LojaRow {
  id_loja: number;
  nome: string;
  ativa: boolean;
  tokens_revogados_antes: Date | null;
  criada_em: Date;
}

/** Read model of stores: lookup by code hash for authentication, status for tokens. */
@Injectable()
export class LojasProjection implements Projection<LojaEvent> {
  readonly name = 'lojas';
  readonly handles = ['loja.criada', 'loja.desativada', 'loja.ativada', 'loja.codigo.rotacionado'] as const;
  readonly tables = ['lojas'];

  async apply(manager: EntityManager, event: AppendedEvent<LojaEvent>): Promise<void> {
    switch (event.type) {
      case 'loja.criada':
        await writeAtCommit(
          manager,
          `INSERT INTO lojas (id_loja, nome, codigo_hash, ativa, criada_em, atualizada_em) VALUES ($1, $2, $3, true, $4, $4)`,
          [event.data.idLoja, event.data.nome, event.data.codigoHash, event.data.criadaEm],
        );
        return;
      case 'loja.desativada':
        await writeAtCommit(manager, `UPDATE lojas SET ativa = false, tokens_revogados_antes = $2, atualizada_em = $2 WHERE id_loja = $1`, [
          event.data.idLoja,
          event.data.dataDesativacao,
        ]);
        return;
      case 'loja.ativada':
        await writeAtCommit(manager, `UPDATE lojas SET ativa = true, atualizada_em = $2 WHERE id_loja = $1`, [event.data.idLoja, event.data.dataAtivacao]);
        return;
      case 'loja.codigo.rotacionado':
        await writeAtCommit(manager, `UPDATE lojas SET codigo_hash = $2, tokens_revogados_antes = $3, atualizada_em = $3 WHERE id_loja = $1`, [
          event.data.idLoja,
          event.data.codigoHash,
          event.data.dataRotacao,
        ]);
        return;
    }
  }
}

import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { writeAtCommit, type Projection, type AppendedEvent } from '@trilha/event-store';
import type { AgenteEvent } from '@trilha/atendimento-domain';

/**
 * Agents, with their FAQ. `versao` is the agent stream's version: the in-memory FAQ indexes
 * are rebuilt when it moves, on every replica.
 */
@Injectable()
export class AgentesProjection implements Projection<AgenteEvent> {
  readonly name = 'agentes';
  readonly handles = ['agente.criado'] as const;
  readonly tables = ['agentes'];

  async apply(manager: EntityManager, stored: AppendedEvent<AgenteEvent>): Promise<void> {
    const { data } = stored;
    await writeAtCommit(
      manager,
      `INSERT INTO agentes (id_agente, id_loja, nome, descricao, habilidades, faq, ativo, versao, criado_em)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [data.idAgente, data.idLoja, data.nome, data.descricao, data.habilidades, JSON.stringify(data.faq), data.ativo, stored.streamVersion, data.criadoEm],
    );
  }
}

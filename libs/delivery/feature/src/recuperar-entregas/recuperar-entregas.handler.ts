import { ConflictException, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { InvalidInputException } from '@trilha/http';
import { avisarEntregas, travarLojas, webhookDaLoja } from '../shared';
import { RECUPERACAO_MAX_DIAS, type RecuperacaoResponse } from './recuperar-entregas.request';

const DIA_MS = 86_400_000;

/**
 * POST /webhook/entregas/recuperar {desde}: every delivery of the store that failed since
 * `desde` — an attempt of it failed since then, or its event occurred since then and was queued
 * without one (a deactivated webhook) — gets one more attempt (those already in the queue
 * included), one
 * delivery at a time in the order the events occurred: the first is made due now and each
 * attempt's end makes the next one due (EntregasDevidas.concluir), so the store's endpoint sees
 * them in order and the dispatcher's per-store cap keeps other stores going. A delivered one
 * leaves the queue; one that fails again stays there. Nothing is lost either way.
 */
@Injectable()
export class RecuperarEntregasHandler {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async execute(idLoja: number, texto: string): Promise<RecuperacaoResponse> {
    const desde = new Date(texto);
    const agora = Date.now();
    if (desde.getTime() > agora) throw invalida('desde não pode estar no futuro');
    if (desde.getTime() < agora - RECUPERACAO_MAX_DIAS * DIA_MS) throw invalida(`desde pode ser no máximo ${RECUPERACAO_MAX_DIAS} dias atrás`);
    return this.dataSource.transaction(async (manager) => {
      await travarLojas(manager, [idLoja]);
      const webhook = await webhookDaLoja(manager, idLoja);
      if (!webhook) throw new ConflictException('A loja não tem webhook cadastrado; cadastre um em POST /webhook/novo.');
      if (!webhook.ativo) throw new ConflictException('O webhook da loja está desativado; reative-o em POST /webhook/ativar.');
      const [, recuperadas]: [unknown[], number] = await manager.query(
        `UPDATE entregas SET recuperar = true, manual = true, proxima_em = NULL
         WHERE id_loja = $1 AND status = 'falhou' AND lease IS NULL AND NOT recuperar
           AND (ocorrido_em >= $2 OR EXISTS (SELECT 1 FROM tentativas t WHERE t.id_entrega = entregas.id_entrega AND t.data_hora >= $2))`,
        [idLoja, desde],
      );
      // The first of the store's recovery, unless one of it is already due or in flight.
      const [, iniciadas]: [unknown[], number] = await manager.query(
        `UPDATE entregas SET proxima_em = now()
         WHERE id_entrega = (SELECT id_entrega FROM entregas WHERE id_loja = $1 AND recuperar ORDER BY posicao LIMIT 1)
           AND NOT EXISTS (SELECT 1 FROM entregas WHERE id_loja = $1 AND recuperar AND proxima_em IS NOT NULL)`,
        [idLoja],
      );
      if (iniciadas > 0) await avisarEntregas(manager);
      return { quantidade: recuperadas };
    });
  }
}

const invalida = (mensagem: string) => new InvalidInputException([{ campo: 'desde', mensagem }], `Valor inválido em desde: ${mensagem}.`);

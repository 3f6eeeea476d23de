import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ehUuid } from '@trilha/ids';
import { avisarEntregas, travarLojas, webhookDaLoja } from '../shared';
import type { EntregaResponse } from '../listar-entregas/entrega.response';
import { COLUNAS_ENTREGA, entregasComTentativas } from '../listar-entregas/entregas-com-tentativas';

/**
 * POST /webhook/entregas/{idEntrega}/reenviar: makes an attempt now. A delivery waiting for a
 * retry has it brought forward; a finished one (delivered or failed) gets one attempt outside
 * the schedule. A delivery in flight, or whose first attempt has not been made yet (it keeps
 * its place in the store's order), is already on its way and is left as it is.
 */
@Injectable()
export class ReenviarEntregaHandler {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async execute(idLoja: number, idEntrega: string): Promise<EntregaResponse> {
    if (!ehUuid(idEntrega)) throw naoEncontrada();
    return this.dataSource.transaction(async (manager) => {
      await travarLojas(manager, [idLoja]);
      const [entrega] = await manager.query(
        `SELECT status, tentativas, lease FROM entregas WHERE id_entrega = $1 AND id_loja = $2 FOR UPDATE`,
        [idEntrega, idLoja],
      );
      if (!entrega) throw naoEncontrada();
      const webhook = await webhookDaLoja(manager, idLoja);
      if (!webhook) throw new ConflictException('A loja não tem webhook cadastrado; cadastre um em POST /webhook/novo.');
      if (!webhook.ativo) throw new ConflictException('O webhook da loja está desativado; reative-o em POST /webhook/ativar.');
      if (entrega.lease === null && !(entrega.status === 'pendente' && entrega.tentativas === 0)) {
        await manager.query(`UPDATE entregas SET proxima_em = now(), manual = (status <> 'pendente') WHERE id_entrega = $1`, [idEntrega]);
        await avisarEntregas(manager);
      }
      // Read after the update, so the answer says when the resend is due.
      const [resposta] = await entregasComTentativas(manager, await manager.query(`SELECT ${COLUNAS_ENTREGA} FROM entregas WHERE id_entrega = $1`, [idEntrega]));
      return resposta;
    });
  }
}

const naoEncontrada = () => new NotFoundException('Entrega não encontrada.');

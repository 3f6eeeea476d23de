import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { corpoNotificacao } from '@trilha/delivery-domain';
import { ehUuid } from '@trilha/ids';
import type { EntregaDetalhadaResponse } from '../listar-entregas/entrega.response';
import { COLUNAS_ENTREGA, entregaResponse, tentativasDetalhadas, type EntregaRow } from '../listar-entregas/entregas-com-tentativas';

/**
 * GET /webhook/entregas/{idEntrega}: one delivery of the store with the request its attempts
 * send — the body made by the function the dispatcher sends it with (`corpoNotificacao`), the
 * URL and headers of the last attempt — and every attempt with what it sent and got back.
 */
@Injectable()
export class ConsultarEntregaHandler {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async execute(idLoja: number, idEntrega: string): Promise<EntregaDetalhadaResponse> {
    if (!ehUuid(idEntrega)) throw naoEncontrada();
    // The delivery and its attempts from one snapshot: an attempt recorded between two reads would show beside the state before it.
    return this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      const [entrega]: (EntregaRow & { data: object })[] = await manager.query(`SELECT ${COLUNAS_ENTREGA}, data FROM entregas WHERE id_entrega = $1 AND id_loja = $2`, [idEntrega, idLoja]);
      if (!entrega) throw naoEncontrada();
      const tentativas = await tentativasDetalhadas(manager, idEntrega);
      const ultima = tentativas.at(-1);
      return {
        ...entregaResponse(entrega, tentativas),
        requisicao: { url: ultima?.url ?? null, cabecalhos: ultima?.cabecalhos ?? null, corpo: corpoNotificacao(entrega.evento, entrega.data) },
      };
    });
  }
}

const naoEncontrada = () => new NotFoundException('Entrega não encontrada.');

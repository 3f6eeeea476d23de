import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { writeAtCommit, type AppendedEvent, type PreparedStatement, type Projection } from '@trilha/event-store';
import { ATENDIMENTO_EVENTOS, type AtendimentoEvent } from '@trilha/atendimento-domain';

/** The projection's statements, one per event type, each prepared once per connection: written with every command's COMMIT. */
const ABRIR: PreparedStatement = {
  name: 'atendimentos_abrir',
  text: `INSERT INTO atendimentos (id_atendimento, id_loja, canal, tipo, status, dados_cliente, id_pedido, data_abertura) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
};
const REGISTRAR_MENSAGEM: PreparedStatement = {
  name: 'atendimentos_registrar_mensagem',
  text: `INSERT INTO atendimento_mensagens (id_mensagem, id_atendimento, posicao, direcao, remetente, mensagem, data_hora) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
};
const ENCERRAR: PreparedStatement = {
  name: 'atendimentos_encerrar',
  text: `UPDATE atendimentos SET status = $2, data_encerramento = $3, resumo = $4 WHERE id_atendimento = $1`,
};

/** Conversations and their messages, as GET /atendimentos reads them; updated in the appending transaction. */
@Injectable()
export class AtendimentosProjection implements Projection<AtendimentoEvent> {
  readonly name = 'atendimentos';
  readonly handles = Object.values(ATENDIMENTO_EVENTOS);
  readonly tables = ['atendimentos', 'atendimento_mensagens'];

  async apply(manager: EntityManager, event: AppendedEvent<AtendimentoEvent>): Promise<void> {
    switch (event.type) {
      case 'atendimento.criado': {
        const { idAtendimento, idLoja, canal, tipo, status, dadosCliente, idPedido, dataAbertura } = event.data;
        await writeAtCommit(manager, ABRIR, [idAtendimento, idLoja, canal, tipo, status, JSON.stringify(dadosCliente), idPedido, dataAbertura]);
        return;
      }
      case 'atendimento.mensagem': {
        const { idMensagem, idAtendimento, direcao, remetente, mensagem, dataHora } = event.data;
        await writeAtCommit(manager, REGISTRAR_MENSAGEM, [idMensagem, idAtendimento, event.streamVersion, direcao, remetente, mensagem, dataHora]);
        return;
      }
      case 'atendimento.encerrado': {
        const { idAtendimento, status, dataEncerramento, resumo } = event.data;
        await writeAtCommit(manager, ENCERRAR, [idAtendimento, status, dataEncerramento, resumo]);
        return;
      }
    }
  }
}

import { Injectable } from '@nestjs/common';
import { novoId } from '@trilha/ids';
import type { AppendedEvent } from '@trilha/event-store';
import type { AtendimentoEvent } from '@trilha/atendimento-domain';
import { AtendimentoCommands, type AtendimentoCriadoResponse } from '../shared';
import type { AbrirAtendimentoRequest } from './abrir-atendimento.request';

/** Opens a conversation (status aberto) and, with `mensagem`, records it as the customer's first message. */
@Injectable()
export class AbrirAtendimentoHandler {
  constructor(private readonly commands: AtendimentoCommands) {}

  async execute(idLoja: number, body: AbrirAtendimentoRequest): Promise<AtendimentoCriadoResponse> {
    const idAtendimento = novoId();
    const { nome, telefone = null, email = null } = body.dadosCliente;
    const events = await this.commands.executar(idAtendimento, idLoja, {
      acao: 'abrir',
      idAtendimento,
      idLoja,
      canal: body.canal,
      tipo: body.tipo,
      dadosCliente: { nome, telefone, email },
      idPedido: body.idPedido ?? null,
      mensagemInicial: body.mensagem == null ? null : { idMensagem: novoId(), mensagem: body.mensagem },
      agora: new Date().toISOString(),
    }, resposta);
    return resposta(events);
  }
}

/** The answer: the conversation as `atendimento.criado` tells it, without the order it is about. */
function resposta([criado]: AppendedEvent<AtendimentoEvent>[]): AtendimentoCriadoResponse {
  if (criado.type !== 'atendimento.criado') throw new Error(`unexpected ${criado.type}`);
  const { idPedido: _interno, ...dados } = criado.data;
  return dados;
}

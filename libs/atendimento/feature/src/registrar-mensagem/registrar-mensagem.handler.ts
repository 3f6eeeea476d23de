import { Injectable, NotFoundException } from '@nestjs/common';
import { ID_MAX, novoId } from '@trilha/ids';
import { AtendimentoCommands, type MensagemAtendimentoResponse } from '../shared';
import type { RegistrarMensagemRequest } from './registrar-mensagem.request';

/** Records a message in an open conversation (409 once it is closed). */
@Injectable()
export class RegistrarMensagemHandler {
  constructor(private readonly commands: AtendimentoCommands) {}

  async execute(idLoja: number, idAtendimento: string, body: RegistrarMensagemRequest): Promise<MensagemAtendimentoResponse> {
    if (idAtendimento.length > ID_MAX) throw new NotFoundException('Atendimento não encontrado.');
    const idMensagem = novoId();
    const agora = new Date().toISOString();
    const { direcao, remetente, mensagem } = body;
    const resposta: MensagemAtendimentoResponse = { idMensagem, direcao, remetente, mensagem, dataHora: agora };
    await this.commands.executar(idAtendimento, idLoja, { acao: 'registrarMensagens', idLoja, agora, mensagens: [{ idMensagem, direcao, remetente, mensagem }] }, () => resposta);
    return resposta;
  }
}

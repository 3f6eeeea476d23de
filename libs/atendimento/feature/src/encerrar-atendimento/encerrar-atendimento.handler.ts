import { Injectable, NotFoundException } from '@nestjs/common';
import { ID_MAX } from '@trilha/ids';
import { AtendimentoCommands, type AtendimentoResponse, LeituraDeAtendimento } from '../shared';
import type { EncerrarAtendimentoRequest } from './encerrar-atendimento.request';

/** Closes a conversation with the summary given or, without one, one the domain writes; answers with the closed conversation. */
@Injectable()
export class EncerrarAtendimentoHandler {
  constructor(
    private readonly commands: AtendimentoCommands,
    private readonly leitura: LeituraDeAtendimento,
  ) {}

  async execute(idLoja: number, idAtendimento: string, body: EncerrarAtendimentoRequest): Promise<AtendimentoResponse> {
    if (idAtendimento.length > ID_MAX) throw new NotFoundException('Atendimento não encontrado.');
    await this.commands.executar(idAtendimento, idLoja, { acao: 'encerrar', idLoja, resumo: body.resumo ?? null, agora: new Date().toISOString() });
    // The read model is updated in the appending transaction: it already shows the closing.
    return this.leitura.ler(idLoja, idAtendimento);
  }
}

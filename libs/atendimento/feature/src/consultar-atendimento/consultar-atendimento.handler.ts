import { Injectable, NotFoundException } from '@nestjs/common';
import { ID_MAX } from '@trilha/ids';
import { type AtendimentoResponse, LeituraDeAtendimento } from '../shared';

/** One conversation of the store, with its messages in order. */
@Injectable()
export class ConsultarAtendimentoHandler {
  constructor(private readonly leitura: LeituraDeAtendimento) {}

  execute(idLoja: number, idAtendimento: string): Promise<AtendimentoResponse> {
    if (idAtendimento.length > ID_MAX) throw new NotFoundException('Atendimento não encontrado.');
    return this.leitura.ler(idLoja, idAtendimento);
  }
}

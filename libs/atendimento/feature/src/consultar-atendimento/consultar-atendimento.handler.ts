import { Injectable, NotFoundException } from '@nestjs/common';
import type { AtendimentoResponse } from '../shared/atendimento.response';
import { LeituraDeAtendimento } from '../shared/leitura-de-atendimento';
import { ID_MAX } from '../shared/novo-id';

/** One conversation of the store, with its messages in order. */
@Injectable()
export class ConsultarAtendimentoHandler {
  constructor(private readonly leitura: LeituraDeAtendimento) {}

  execute(idLoja: number, idAtendimento: string): Promise<AtendimentoResponse> {
    if (idAtendimento.length > ID_MAX) throw new NotFoundException('Atendimento não encontrado.');
    return this.leitura.ler(idLoja, idAtendimento);
  }
}

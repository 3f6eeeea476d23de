import { Injectable } from '@nestjs/common';
import type { Agente } from '@trilha/atendimento-domain';
import { novoId } from '@trilha/ids';
import { AgenteCommands, type AgenteResponse } from '../shared';
import type { CriarAgenteRequest } from './criar-agente.request';

/** Creates an FAQ agent (skill faq) of the store. */
@Injectable()
export class CriarAgenteHandler {
  constructor(private readonly commands: AgenteCommands) {}

  async execute(idLoja: number, body: CriarAgenteRequest): Promise<AgenteResponse> {
    const agente: Agente = {
      idAgente: novoId(),
      idLoja,
      nome: body.nome,
      descricao: body.descricao,
      habilidades: ['faq'],
      faq: body.faq.map(({ pergunta, resposta }) => ({ pergunta, resposta })),
      ativo: true,
      criadoEm: new Date().toISOString(),
    };
    const { idAgente, nome, descricao, habilidades, ativo } = agente;
    const resposta: AgenteResponse = { idAgente, nome, descricao, habilidades, ativo };
    await this.commands.criar(agente, () => resposta);
    return resposta;
  }
}

import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdLoja } from '@trilha/http';
import type { Agente } from '@trilha/atendimento-domain';
import { AgenteResponse } from '../agente.response';
import { AgentesService } from '../agentes.service';
import { novoId } from '../novo-id';
import { CriarAgenteRequest } from './criar-agente.request';

@ApiTags('Agentes')
@Controller('agentes')
export class CriarAgenteHttpController {
  constructor(private readonly agentes: AgentesService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ operationId: 'criarAgente', summary: 'Cria um agente de perguntas frequentes (habilidade faq).' })
  @ApiCreatedResponse({ type: AgenteResponse })
  async criar(@IdLoja() idLoja: number, @Body() body: CriarAgenteRequest): Promise<AgenteResponse> {
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
    await this.agentes.criar(agente);
    const { idAgente, nome, descricao, habilidades, ativo } = agente;
    return { idAgente, nome, descricao, habilidades, ativo };
  }
}

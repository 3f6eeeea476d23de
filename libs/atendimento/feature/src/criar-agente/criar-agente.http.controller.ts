import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Idempotente } from '@trilha/event-store';
import { FAQ_LIMITES } from '@trilha/atendimento-domain';
import { IdLoja } from '@trilha/http';
import { AgenteResponse } from '../shared';
import { CriarAgenteHandler } from './criar-agente.handler';
import { CriarAgenteRequest } from './criar-agente.request';

@ApiTags('Agentes')
@Controller('agentes')
export class CriarAgenteHttpController {
  constructor(private readonly handler: CriarAgenteHandler) {}

  @Post()
  @Idempotente()
  @HttpCode(201)
  @ApiOperation({ operationId: 'criarAgente', summary: 'Cria um agente de perguntas frequentes (habilidade faq).' })
  @ApiCreatedResponse({ type: AgenteResponse })
  @ApiBadRequestResponse({
    description: `Requisição inválida: \`erros\` nomeia cada campo e o porquê; \`faq\` tem no máximo ${FAQ_LIMITES.entradas} entradas e ${FAQ_LIMITES.caracteres} caracteres somando perguntas e respostas.`,
  })
  criar(@IdLoja() idLoja: number, @Body() body: CriarAgenteRequest): Promise<AgenteResponse> {
    return this.handler.execute(idLoja, body);
  }
}

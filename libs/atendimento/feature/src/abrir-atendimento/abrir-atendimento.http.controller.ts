import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Idempotente } from '@trilha/event-store';
import { IdLoja } from '@trilha/http';
import { AtendimentoCriadoResponse } from '../shared';
import { AbrirAtendimentoHandler } from './abrir-atendimento.handler';
import { AbrirAtendimentoRequest } from './abrir-atendimento.request';

@ApiTags('Atendimentos')
@Controller('atendimentos')
export class AbrirAtendimentoHttpController {
  constructor(private readonly handler: AbrirAtendimentoHandler) {}

  @Post()
  @Idempotente()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'abrirAtendimento',
    summary: 'Abre um atendimento (status aberto): emite atendimento.criado e, com `mensagem`, atendimento.mensagem (entrada).',
  })
  @ApiCreatedResponse({ type: AtendimentoCriadoResponse })
  abrir(@IdLoja() idLoja: number, @Body() body: AbrirAtendimentoRequest): Promise<AtendimentoCriadoResponse> {
    return this.handler.execute(idLoja, body);
  }
}

import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Idempotente } from '@trilha/event-store';
import { IdLoja } from '@trilha/http';
import { MensagemAtendimentoResponse } from '../shared';
import { RegistrarMensagemHandler } from './registrar-mensagem.handler';
import { RegistrarMensagemRequest } from './registrar-mensagem.request';

@ApiTags('Atendimentos')
@Controller('atendimentos/:idAtendimento/mensagens')
export class RegistrarMensagemHttpController {
  constructor(private readonly handler: RegistrarMensagemHandler) {}

  @Post()
  @Idempotente()
  @HttpCode(201)
  @ApiOperation({ operationId: 'registrarMensagemAtendimento', summary: 'Registra uma mensagem num atendimento aberto: emite atendimento.mensagem; 409 se encerrado.' })
  @ApiCreatedResponse({ type: MensagemAtendimentoResponse })
  @ApiConflictResponse({ description: 'O atendimento está encerrado.' })
  registrar(@IdLoja() idLoja: number, @Param('idAtendimento') idAtendimento: string, @Body() body: RegistrarMensagemRequest): Promise<MensagemAtendimentoResponse> {
    return this.handler.execute(idLoja, idAtendimento, body);
  }
}

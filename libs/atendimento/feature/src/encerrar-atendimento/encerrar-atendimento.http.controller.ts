import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdLoja } from '@trilha/http';
import { AtendimentoResponse } from '../shared';
import { EncerrarAtendimentoHandler } from './encerrar-atendimento.handler';
import { EncerrarAtendimentoRequest } from './encerrar-atendimento.request';

@ApiTags('Atendimentos')
@Controller('atendimentos/:idAtendimento/encerrar')
export class EncerrarAtendimentoHttpController {
  constructor(private readonly handler: EncerrarAtendimentoHandler) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'encerrarAtendimento',
    summary: 'Encerra o atendimento: emite atendimento.encerrado com o resumo informado ou, sem ele, um escrito pelo serviço; 409 se já encerrado.',
  })
  @ApiOkResponse({ type: AtendimentoResponse })
  @ApiConflictResponse({ description: 'O atendimento já está encerrado.' })
  encerrar(@IdLoja() idLoja: number, @Param('idAtendimento') idAtendimento: string, @Body() body: EncerrarAtendimentoRequest): Promise<AtendimentoResponse> {
    return this.handler.execute(idLoja, idAtendimento, body);
  }
}

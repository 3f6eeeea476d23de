import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdLoja } from '@trilha/http';
import { AtendimentoResponse } from '../shared';
import { ConsultarAtendimentoHandler } from './consultar-atendimento.handler';

@ApiTags('Atendimentos')
@Controller('atendimentos/:idAtendimento')
export class ConsultarAtendimentoHttpController {
  constructor(private readonly handler: ConsultarAtendimentoHandler) {}

  @Get()
  @ApiOperation({ operationId: 'consultarAtendimento', summary: 'Um atendimento da loja, com suas mensagens em ordem.' })
  @ApiOkResponse({ type: AtendimentoResponse })
  consultar(@IdLoja() idLoja: number, @Param('idAtendimento') idAtendimento: string): Promise<AtendimentoResponse> {
    return this.handler.execute(idLoja, idAtendimento);
  }
}

import { Controller, Get, NotFoundException, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdLoja } from '@trilha/http';
import { AtendimentoResponse } from '../atendimento.response';
import { AtendimentosQueries } from '../atendimentos.queries';
import { ID_MAX } from '../novo-id';

@ApiTags('Atendimentos')
@Controller('atendimentos/:idAtendimento')
export class ConsultarAtendimentoHttpController {
  constructor(private readonly queries: AtendimentosQueries) {}

  @Get()
  @ApiOperation({ operationId: 'consultarAtendimento', summary: 'Um atendimento da loja, com suas mensagens em ordem.' })
  @ApiOkResponse({ type: AtendimentoResponse })
  consultar(@IdLoja() idLoja: number, @Param('idAtendimento') idAtendimento: string): Promise<AtendimentoResponse> {
    if (idAtendimento.length > ID_MAX) throw new NotFoundException('Atendimento não encontrado.');
    return this.queries.ler(idLoja, idAtendimento);
  }
}

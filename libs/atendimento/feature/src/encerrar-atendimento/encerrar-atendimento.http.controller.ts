import { Body, Controller, HttpCode, NotFoundException, Param, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdLoja } from '@trilha/http';
import { AtendimentoCommandsService } from '../atendimento-commands.service';
import { AtendimentoResponse } from '../atendimento.response';
import { AtendimentosQueries } from '../atendimentos.queries';
import { ID_MAX } from '../novo-id';
import { EncerrarAtendimentoRequest } from './encerrar-atendimento.request';

@ApiTags('Atendimentos')
@Controller('atendimentos/:idAtendimento/encerrar')
export class EncerrarAtendimentoHttpController {
  constructor(
    private readonly commands: AtendimentoCommandsService,
    private readonly queries: AtendimentosQueries,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'encerrarAtendimento',
    summary: 'Encerra o atendimento: emite atendimento.encerrado com o resumo informado ou, sem ele, um escrito pelo serviço; 409 se já encerrado.',
  })
  @ApiOkResponse({ type: AtendimentoResponse })
  @ApiConflictResponse({ description: 'O atendimento já está encerrado.' })
  async encerrar(@IdLoja() idLoja: number, @Param('idAtendimento') idAtendimento: string, @Body() body: EncerrarAtendimentoRequest): Promise<AtendimentoResponse> {
    if (idAtendimento.length > ID_MAX) throw new NotFoundException('Atendimento não encontrado.');
    await this.commands.executar(idAtendimento, idLoja, { acao: 'encerrar', idLoja, resumo: body.resumo ?? null, agora: new Date().toISOString() });
    // The read model is updated in the appending transaction: it already shows the closing.
    return this.queries.ler(idLoja, idAtendimento);
  }
}

import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdLoja } from '@trilha/http';
import { AgentesResponse } from '../agente.response';
import { AgentesService } from '../agentes.service';

@ApiTags('Agentes')
@Controller('agentes')
export class ListarAgentesHttpController {
  constructor(private readonly agentes: AgentesService) {}

  @Get()
  @ApiOperation({ operationId: 'listarAgentes', summary: 'Agentes virtuais da loja, a começar pelo Assistente de rastreio.' })
  @ApiOkResponse({ type: AgentesResponse })
  async listar(@IdLoja() idLoja: number): Promise<AgentesResponse> {
    return { agentes: await this.agentes.listar(idLoja) };
  }
}

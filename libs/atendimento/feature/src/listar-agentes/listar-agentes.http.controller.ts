import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdLoja } from '@trilha/http';
import { AgentesResponse } from '../shared';
import { ListarAgentesHandler } from './listar-agentes.handler';

@ApiTags('Agentes')
@Controller('agentes')
export class ListarAgentesHttpController {
  constructor(private readonly handler: ListarAgentesHandler) {}

  @Get()
  @ApiOperation({ operationId: 'listarAgentes', summary: 'Agentes virtuais da loja, a começar pelo Assistente de rastreio.' })
  @ApiOkResponse({ type: AgentesResponse })
  listar(@IdLoja() idLoja: number): Promise<AgentesResponse> {
    return this.handler.execute(idLoja);
  }
}

import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdLoja } from '@trilha/http';
import { AtendimentosPaginaResponse } from '../shared';
import { ListarAtendimentosHandler } from './listar-atendimentos.handler';
import { ListarAtendimentosQuery } from './listar-atendimentos.request';

@ApiTags('Atendimentos')
@Controller('atendimentos')
export class ListarAtendimentosHttpController {
  constructor(private readonly handler: ListarAtendimentosHandler) {}

  @Get()
  @ApiOperation({ operationId: 'listarAtendimentos', summary: 'Atendimentos da loja, os mais recentes primeiro, paginados.' })
  @ApiOkResponse({ type: AtendimentosPaginaResponse })
  listar(@IdLoja() idLoja: number, @Query() query: ListarAtendimentosQuery): Promise<AtendimentosPaginaResponse> {
    return this.handler.execute(idLoja, query);
  }
}

import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdLoja, PortalSession } from '@trilha/http';
import { FilaResponse } from './fila.response';
import { ListarFilaHandler } from './listar-fila.handler';
import { ListarFilaRequest } from './listar-fila.request';

/** GET /fila/lista (docs/API.md section 8). */
@ApiTags('Fila')
@PortalSession()
@ApiBearerAuth()
@Controller('fila')
export class ListarFilaHttpController {
  constructor(private readonly handler: ListarFilaHandler) {}

  @Get('lista')
  @ApiOperation({ operationId: 'consultarFila', summary: 'Eventos pendentes na fila da loja, dos mais antigos aos mais novos (não remove).' })
  @ApiOkResponse({ type: FilaResponse })
  listar(@IdLoja() idLoja: number, @Query() query: ListarFilaRequest): Promise<FilaResponse> {
    return this.handler.execute(idLoja, query.limite);
  }
}

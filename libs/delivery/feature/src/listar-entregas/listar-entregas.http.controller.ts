import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdLoja, PortalSession } from '@trilha/http';
import { EntregasResponse } from './entrega.response';
import { ListarEntregasHandler } from './listar-entregas.handler';
import { ListarEntregasRequest } from './listar-entregas.request';

@ApiTags('Webhook')
@PortalSession()
@ApiBearerAuth()
@Controller('webhook/entregas')
export class ListarEntregasHttpController {
  constructor(private readonly handler: ListarEntregasHandler) {}

  @Get()
  @ApiOperation({ operationId: 'listarEntregas', summary: 'As entregas do webhook e suas tentativas, das mais recentes às mais antigas.' })
  @ApiOkResponse({ type: EntregasResponse })
  listar(@IdLoja() idLoja: number, @Query() query: ListarEntregasRequest): Promise<EntregasResponse> {
    return this.handler.execute(idLoja, query);
  }
}

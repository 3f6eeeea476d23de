import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdLoja, PortalSession } from '@trilha/http';
import { RemoverVariosDaFilaHandler } from './remover-varios-da-fila.handler';
import { RemoverVariosDaFilaRequest, RemovidosDaFilaResponse } from './remover-varios-da-fila.request';

/** POST /fila/remover (docs/API.md section 8). */
@ApiTags('Fila')
@PortalSession()
@ApiBearerAuth()
@Controller('fila')
export class RemoverVariosDaFilaHttpController {
  constructor(private readonly handler: RemoverVariosDaFilaHandler) {}

  @Post('remover')
  @HttpCode(200)
  @ApiOperation({ operationId: 'removerEventosFila', summary: 'Remove da fila de uma vez até 500 eventos já processados; diz quais foram removidos e quais não estavam na fila.' })
  @ApiOkResponse({ type: RemovidosDaFilaResponse })
  remover(@IdLoja() idLoja: number, @Body() body: RemoverVariosDaFilaRequest): Promise<RemovidosDaFilaResponse> {
    return this.handler.execute(idLoja, body.codigos);
  }
}

import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiConflictResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdLoja, PortalSession } from '@trilha/http';
import { RecuperarEntregasHandler } from './recuperar-entregas.handler';
import { RecuperacaoResponse, RecuperarEntregasRequest } from './recuperar-entregas.request';

@ApiTags('Webhook')
@PortalSession()
@ApiBearerAuth()
@Controller('webhook/entregas')
export class RecuperarEntregasHttpController {
  constructor(private readonly handler: RecuperarEntregasHandler) {}

  @Post('recuperar')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'recuperarEntregas',
    summary: 'Reenvia, na ordem, toda entrega que falhou desde um instante (inclusive as que já foram para a fila, que saem dela quando entregues).',
  })
  @ApiAcceptedResponse({ type: RecuperacaoResponse })
  @ApiConflictResponse({ description: 'A loja não tem webhook cadastrado, ou ele está desativado.' })
  recuperar(@IdLoja() idLoja: number, @Body() body: RecuperarEntregasRequest): Promise<RecuperacaoResponse> {
    return this.handler.execute(idLoja, body.desde);
  }
}

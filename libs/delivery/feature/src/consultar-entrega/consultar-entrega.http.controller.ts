import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdLoja, PortalSession } from '@trilha/http';
import { EntregaDetalhadaResponse } from '../listar-entregas/entrega.response';
import { ConsultarEntregaHandler } from './consultar-entrega.handler';

@ApiTags('Webhook')
@PortalSession()
@ApiBearerAuth()
@Controller('webhook/entregas')
export class ConsultarEntregaHttpController {
  constructor(private readonly handler: ConsultarEntregaHandler) {}

  @Get(':idEntrega')
  @ApiOperation({
    operationId: 'consultarEntrega',
    summary: 'Uma entrega em detalhe: a requisição como enviada (URL, cabeçalhos com a assinatura, corpo), a próxima tentativa, e cada tentativa com o status, a duração e o início da resposta do receptor.',
  })
  @ApiOkResponse({ type: EntregaDetalhadaResponse })
  @ApiNotFoundResponse({ description: 'Nenhuma entrega com este id nesta loja.' })
  consultar(@IdLoja() idLoja: number, @Param('idEntrega') idEntrega: string): Promise<EntregaDetalhadaResponse> {
    return this.handler.execute(idLoja, idEntrega);
  }
}

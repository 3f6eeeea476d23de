import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdLoja, PortalSession } from '@trilha/http';
import { WebhookResponse } from '../shared';
import { ConsultarWebhookHandler } from './consultar-webhook.handler';

@ApiTags('Webhook')
@PortalSession()
@ApiBearerAuth()
@Controller('webhook')
export class ConsultarWebhookHttpController {
  constructor(private readonly handler: ConsultarWebhookHandler) {}

  @Get()
  @ApiOperation({ operationId: 'consultarWebhook', summary: 'O webhook cadastrado da loja (sem o segredo) e a saúde do endpoint: últimas entregas e falhas, taxa de sucesso, se está ativo.' })
  @ApiOkResponse({ type: WebhookResponse })
  @ApiNotFoundResponse({ description: 'A loja não tem webhook cadastrado.' })
  consultar(@IdLoja() idLoja: number): Promise<WebhookResponse> {
    return this.handler.execute(idLoja);
  }
}

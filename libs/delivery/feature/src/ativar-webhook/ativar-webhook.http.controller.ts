import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdLoja, PortalSession } from '@trilha/http';
import { WebhookResponse } from '../shared';
import { AtivarWebhookHandler } from './ativar-webhook.handler';

@ApiTags('Webhook')
@PortalSession()
@ApiBearerAuth()
@Controller('webhook')
export class AtivarWebhookHttpController {
  constructor(private readonly handler: AtivarWebhookHandler) {}

  @Post('ativar')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'ativarWebhook',
    summary: 'Reativa o webhook desativado (410 Gone ou falhas seguidas); a URL precisa responder 200 à verificação, como no cadastro.',
  })
  @ApiOkResponse({ type: WebhookResponse, description: 'O webhook, ativo.' })
  @ApiNotFoundResponse({ description: 'A loja não tem webhook cadastrado.' })
  ativar(@IdLoja() idLoja: number): Promise<WebhookResponse> {
    return this.handler.execute(idLoja);
  }
}

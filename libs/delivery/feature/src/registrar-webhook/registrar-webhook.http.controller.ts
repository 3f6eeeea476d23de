import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CarriesCredential, IdLoja, PortalSession } from '@trilha/http';
import { WebhookCadastradoResponse } from '../shared';
import { RegistrarWebhookHandler } from './registrar-webhook.handler';
import { RegistrarWebhookRequest } from './registrar-webhook.request';

@ApiTags('Webhook')
@PortalSession()
@ApiBearerAuth()
@Controller('webhook')
export class RegistrarWebhookHttpController {
  constructor(private readonly handler: RegistrarWebhookHandler) {}

  @Post('novo')
  @CarriesCredential()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'cadastrarWebhook',
    summary: 'Cadastra (ou substitui) o webhook da loja e os eventos desejados; a URL precisa responder 200 à verificação.',
  })
  @ApiCreatedResponse({ type: WebhookCadastradoResponse })
  cadastrar(@IdLoja() idLoja: number, @Body() body: RegistrarWebhookRequest): Promise<WebhookCadastradoResponse> {
    return this.handler.execute(idLoja, body);
  }
}

import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdLoja, PortalSession } from '@trilha/http';
import { TestarWebhookHandler } from './testar-webhook.handler';
import { TesteResponse } from './teste.response';

@ApiTags('Webhook')
@PortalSession()
@ApiBearerAuth()
@Controller('webhook')
export class TestarWebhookHttpController {
  constructor(private readonly handler: TestarWebhookHandler) {}

  @Post('testar')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'testarWebhook',
    summary: 'Envia agora à URL do webhook um evento de teste assinado, {evento: "webhook.teste", data: {idLoja, dataHora}}, e responde o que o receptor respondeu (não vira entrega).',
  })
  @ApiOkResponse({ type: TesteResponse, description: 'O que o receptor respondeu; uma falha dele (status, tempo esgotado, conexão recusada) vem em statusHttp e erro.' })
  @ApiNotFoundResponse({ description: 'A loja não tem webhook cadastrado.' })
  testar(@IdLoja() idLoja: number): Promise<TesteResponse> {
    return this.handler.execute(idLoja);
  }
}

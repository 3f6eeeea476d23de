import { Controller, Delete, HttpCode } from '@nestjs/common';
import { ApiBearerAuth, ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdLoja, PortalSession } from '@trilha/http';
import { RemoverWebhookHandler } from './remover-webhook.handler';

@ApiTags('Webhook')
@PortalSession()
@ApiBearerAuth()
@Controller('webhook')
export class RemoverWebhookHttpController {
  constructor(private readonly handler: RemoverWebhookHandler) {}

  @Delete()
  @HttpCode(204)
  @ApiOperation({ operationId: 'removerWebhook', summary: 'Remove o webhook; a partir daí os eventos (e as entregas pendentes) vão para a fila.' })
  @ApiNoContentResponse({ description: 'Removido (ou não havia webhook).' })
  remover(@IdLoja() idLoja: number): Promise<void> {
    return this.handler.execute(idLoja);
  }
}

import { Controller, Get, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { DataSource } from 'typeorm';
import { IdLoja } from '@trilha/http';
import { WebhookResponse, webhookComSaude, webhookResponse } from '../shared';

@ApiTags('Webhook')
@ApiBearerAuth()
@Controller('webhook')
export class ConsultarWebhookHttpController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Get()
  @ApiOperation({ operationId: 'consultarWebhook', summary: 'O webhook cadastrado da loja (sem o segredo) e a saúde do endpoint: últimas entregas e falhas, taxa de sucesso, se está ativo.' })
  @ApiOkResponse({ type: WebhookResponse })
  @ApiNotFoundResponse({ description: 'A loja não tem webhook cadastrado.' })
  async consultar(@IdLoja() idLoja: number): Promise<WebhookResponse> {
    const webhook = await webhookComSaude(this.dataSource, idLoja);
    if (!webhook) throw new NotFoundException('A loja não tem webhook cadastrado.');
    return webhookResponse(webhook);
  }
}

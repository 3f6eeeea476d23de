import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { webhookComSaude, webhookResponse, type WebhookResponse } from '../shared';

/** GET /webhook: the store's registration, without its secret, and its endpoint's health. */
@Injectable()
export class ConsultarWebhookHandler {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async execute(idLoja: number): Promise<WebhookResponse> {
    const webhook = await webhookComSaude(this.dataSource, idLoja);
    if (!webhook) throw new NotFoundException('A loja não tem webhook cadastrado.');
    return webhookResponse(webhook);
  }
}

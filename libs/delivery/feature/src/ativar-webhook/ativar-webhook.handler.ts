import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { travarLojas, VerificacaoUrl, webhookComSaude, webhookDaLoja, webhookResponse, type WebhookResponse } from '../shared';

/**
 * POST /webhook/ativar: the registered URL passes the verification again, as at registration,
 * and the webhook receives the store's next events; its failure streak starts over. Events
 * queued while it was inactive stay in the queue (POST /webhook/entregas/recuperar sends them).
 * An active webhook is verified and left active.
 */
@Injectable()
export class AtivarWebhookHandler {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly verificacao: VerificacaoUrl,
  ) {}

  async execute(idLoja: number): Promise<WebhookResponse> {
    const webhook = await webhookDaLoja(this.dataSource, idLoja);
    if (!webhook) throw semWebhook();
    await this.verificacao.verificar(idLoja, webhook.url, webhook);
    return this.dataSource.transaction(async (manager) => {
      await travarLojas(manager, [idLoja]);
      await manager.query(
        `UPDATE webhooks SET ativo = true, motivo_desativacao = NULL, desativado_em = NULL, falhas_seguidas = 0, falhando_desde = NULL
         WHERE id_loja = $1 AND id_webhook = $2`,
        [idLoja, webhook.idWebhook],
      );
      const atual = await webhookComSaude(manager, idLoja);
      if (!atual) throw semWebhook();
      return webhookResponse(atual);
    });
  }
}

const semWebhook = () => new NotFoundException('A loja não tem webhook cadastrado.');

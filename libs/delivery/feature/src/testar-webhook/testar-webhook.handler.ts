import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { corpoNotificacao } from '@trilha/delivery-domain';
import { novoId } from '@trilha/ids';
import { currentTraceparent } from '@trilha/observability';
import { VerificacaoUrl, WebhookClient, webhookDaLoja } from '../shared';
import { EVENTO_TESTE, type TesteResponse } from './teste.response';

/**
 * POST /webhook/testar: sends `{evento: "webhook.teste", data: {idLoja, dataHora}}` to the
 * store's URL now, signed and sent as every delivery is (WebhookClient), and answers what the
 * receiver answered. Nothing is recorded: it is no delivery. An inactive webhook is tested
 * too, so a store can see its receiver fixed before it reactivates it. It counts among the
 * store's calls to its URL at once (VerificacaoUrl.chamada).
 */
@Injectable()
export class TestarWebhookHandler {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly verificacao: VerificacaoUrl,
    private readonly client: WebhookClient,
  ) {}

  async execute(idLoja: number): Promise<TesteResponse> {
    const webhook = await webhookDaLoja(this.dataSource, idLoja);
    if (!webhook) throw new NotFoundException('A loja não tem webhook cadastrado; cadastre um em POST /webhook/novo.');
    const corpo = corpoNotificacao(EVENTO_TESTE, { idLoja, dataHora: new Date().toISOString() });
    const { statusHttp, duracaoMs, erro, resposta } = await this.verificacao.chamada(idLoja, () => this.client.enviar(webhook, novoId(), corpo, currentTraceparent()));
    return { evento: EVENTO_TESTE, statusHttp, duracaoMs, erro, resposta };
  }
}

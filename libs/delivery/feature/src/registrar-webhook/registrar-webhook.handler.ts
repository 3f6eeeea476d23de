import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { flagsComPadrao, gerarSegredo } from '@trilha/delivery-domain';
import { novoId } from '@trilha/ids';
import { DELIVERY_OPTIONS, travarLojas, VerificacaoUrl, webhookComSaude, webhookResponse, type DeliveryOptions, type WebhookCadastradoResponse } from '../shared';
import type { RegistrarWebhookRequest } from './registrar-webhook.request';

/**
 * POST /webhook/novo (docs/API.md section 7): the URL passes the verification
 * (VerificacaoUrl), then the store's registration is replaced by an active one with a new
 * secret (stored encrypted, shown only in this answer) and a fresh health; until then nothing is
 * written.
 */
@Injectable()
export class RegistrarWebhookHandler {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly verificacao: VerificacaoUrl,
    @Inject(DELIVERY_OPTIONS) private readonly options: DeliveryOptions,
  ) {}

  async execute(idLoja: number, pedido: RegistrarWebhookRequest): Promise<WebhookCadastradoResponse> {
    const segredo = gerarSegredo();
    const url = await this.verificacao.verificar(idLoja, pedido.url, { segredo, segredoAnterior: null, segredoAnteriorAte: null });
    return this.dataSource.transaction(async (manager) => {
      await travarLojas(manager, [idLoja]);
      await manager.query(
        `INSERT INTO webhooks (id_loja, id_webhook, url, eventos, segredo, criado_em) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (id_loja) DO UPDATE SET id_webhook = EXCLUDED.id_webhook, url = EXCLUDED.url, eventos = EXCLUDED.eventos,
           segredo = EXCLUDED.segredo, criado_em = EXCLUDED.criado_em, ativo = true, motivo_desativacao = NULL, desativado_em = NULL,
           segredo_anterior = NULL, segredo_anterior_ate = NULL, ultima_entrega = NULL, ultima_falha = NULL, ultimo_erro = NULL,
           falhas_seguidas = 0, falhando_desde = NULL`,
        [idLoja, novoId(), url.href, JSON.stringify(flagsComPadrao(pedido)), this.options.chaveiro.cifrar(segredo), new Date()],
      );
      // A new endpoint starts with a health of its own.
      await manager.query(`DELETE FROM tentativas_por_hora WHERE id_loja = $1`, [idLoja]);
      return { ...webhookResponse((await webhookComSaude(manager, idLoja))!), segredo };
    });
  }
}

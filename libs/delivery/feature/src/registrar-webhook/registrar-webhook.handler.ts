import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { corpoNotificacao, flagsComPadrao, gerarSegredo } from '@trilha/delivery-domain';
import { InvalidInputException } from '@trilha/http';
import { currentTraceparent } from '@trilha/observability';
import { EnderecoGuard, EnderecoRecusado } from '../shared/endereco.guard';
import { WebhookClient } from '../shared/webhook.client';
import type { WebhookCadastradoResponse } from '../shared/webhook.response';
import type { RegistrarWebhookRequest } from './registrar-webhook.request';

const invalida = (mensagem: string, detail = mensagem) => new InvalidInputException([{ campo: 'url', mensagem }], detail);

/**
 * POST /webhook/novo (docs/API.md section 7): an https URL whose host resolves to an
 * address webhooks may reach, that answers a signed verification POST with 200 within 10 s.
 * Then it replaces the store's registration with a new secret; until then nothing is written.
 */
@Injectable()
export class RegistrarWebhookHandler {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly guard: EnderecoGuard,
    private readonly client: WebhookClient,
  ) {}

  async execute(idLoja: number, pedido: RegistrarWebhookRequest): Promise<WebhookCadastradoResponse> {
    let url: URL;
    try {
      url = new URL(pedido.url);
    } catch {
      throw invalida('url deve ser uma URL absoluta, como https://minhaloja.example/webhook');
    }
    if (url.protocol !== 'https:') throw invalida('url deve usar https');
    try {
      await this.guard.resolver(url.hostname);
    } catch (error) {
      if (error instanceof EnderecoRecusado) throw invalida(error.message, `A URL não pode receber webhooks: ${error.message}.`);
      throw error;
    }

    const segredo = gerarSegredo();
    const verificacao = corpoNotificacao('webhook.verificacao', { idLoja, desafio: randomBytes(16).toString('base64url') });
    const resultado = await this.client.enviar({ url: url.href, segredo }, randomUUID(), verificacao, currentTraceparent());
    if (!resultado.ok) {
      throw invalida(
        `a verificação falhou: ${resultado.erro}`,
        `A URL não confirmou a chamada de verificação (${resultado.erro}); ela deve responder 200 em até 10 s.`,
      );
    }

    const eventos = flagsComPadrao(pedido);
    const idWebhook = randomUUID();
    const criadoEm = new Date();
    await this.dataSource.query(
      `INSERT INTO webhooks (id_loja, id_webhook, url, eventos, segredo, criado_em) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (id_loja) DO UPDATE SET id_webhook = EXCLUDED.id_webhook, url = EXCLUDED.url, eventos = EXCLUDED.eventos,
         segredo = EXCLUDED.segredo, criado_em = EXCLUDED.criado_em`,
      [idLoja, idWebhook, url.href, JSON.stringify(eventos), segredo, criadoEm],
    );
    return { idWebhook, url: url.href, eventos, segredo, criadoEm: criadoEm.toISOString() };
  }
}

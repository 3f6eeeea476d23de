import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { corpoNotificacao, type Segredos } from '@trilha/delivery-domain';
import { InvalidInputException } from '@trilha/http';
import { novoId } from '@trilha/ids';
import { currentTraceparent } from '@trilha/observability';
import { EnderecoGuard, EnderecoRecusado } from './endereco.guard';
import { WebhookClient } from './webhook.client';

const invalida = (mensagem: string, detail = mensagem) => new InvalidInputException([{ campo: 'url', mensagem }], detail);

/**
 * The check a webhook URL passes before anything is sent to it (registration and
 * reactivation): an https URL whose host resolves to an address webhooks may reach, that
 * answers a signed verification POST `{evento: "webhook.verificacao"}` with 200 within 10 s.
 * Anything else (a 410 included) is a 400 naming `url`.
 */
@Injectable()
export class VerificacaoUrl {
  constructor(
    private readonly guard: EnderecoGuard,
    private readonly client: WebhookClient,
  ) {}

  async verificar(idLoja: number, texto: string, segredos: Segredos): Promise<URL> {
    let url: URL;
    try {
      url = new URL(texto);
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
    const verificacao = corpoNotificacao('webhook.verificacao', { idLoja, desafio: randomBytes(16).toString('base64url') });
    const resultado = await this.client.enviar({ url: url.href, ...segredos }, novoId(), verificacao, currentTraceparent());
    if (!resultado.ok) {
      throw invalida(
        `a verificação falhou: ${resultado.erro}`,
        `A URL não confirmou a chamada de verificação (${resultado.erro}); ela deve responder 200 em até 10 s.`,
      );
    }
    return url;
  }
}

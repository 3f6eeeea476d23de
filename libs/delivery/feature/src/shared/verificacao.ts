import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { corpoNotificacao, type Segredos } from '@trilha/delivery-domain';
import { ConcurrencyLimit, ConcurrencyLimitExceeded, InvalidInputException } from '@trilha/http';
import { novoId } from '@trilha/ids';
import { currentTraceparent } from '@trilha/observability';
import { EnderecoGuard, EnderecoRecusado } from './endereco.guard';
import { TIMEOUT_MS, WebhookClient } from './webhook.client';

/**
 * Verifications one store may have running at once in one replica: a registration or a
 * reactivation at a time is all a store needs, and a second lets it repeat one whose answer it
 * stopped waiting for. Each may wait 10 s on the store's URL (with its own outbound connection,
 * and no database connection), so more would only let one store pile up that waiting.
 */
const VERIFICACOES_POR_LOJA = 2;

const invalida = (mensagem: string, detail = mensagem) => new InvalidInputException([{ campo: 'url', mensagem }], detail);

/**
 * The check a webhook URL passes before anything is sent to it (registration and
 * reactivation): an https URL whose host resolves to an address webhooks may reach, that
 * answers a signed verification POST `{evento: "webhook.verificacao"}` with 200 within 10 s.
 * Anything else (a 410 included) is a 400 naming `url`. A store with VERIFICACOES_POR_LOJA
 * verifications running gets a 429 for another.
 */
@Injectable()
export class VerificacaoUrl {
  private readonly emAndamento = new ConcurrencyLimit<number>(VERIFICACOES_POR_LOJA);

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
    const liberar = await this.emAndamento.acquire(idLoja);
    if (!liberar) {
      throw new ConcurrencyLimitExceeded(
        `Esta loja já tem ${VERIFICACOES_POR_LOJA} verificações de URL simultâneas em andamento, o limite; repita quando uma terminar (Retry-After).`,
        TIMEOUT_MS / 1000,
      );
    }
    try {
      return await this.verificarUrl(idLoja, url, segredos);
    } finally {
      liberar();
    }
  }

  private async verificarUrl(idLoja: number, url: URL, segredos: Segredos): Promise<URL> {
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

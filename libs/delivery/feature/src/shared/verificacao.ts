import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { corpoNotificacao, type Segredos } from '@trilha/delivery-domain';
import { ConcurrencyLimit, ConcurrencyLimitExceeded, InvalidInputException } from '@trilha/http';
import { novoId } from '@trilha/ids';
import { currentTraceparent } from '@trilha/observability';
import { EnderecoGuard, EnderecoRecusado } from './endereco.guard';
import { TIMEOUT_MS, WebhookClient } from './webhook.client';

/**
 * Calls to its URL that one store may have running at once in one replica, verifications and
 * test events together: one at a time is all a store needs, and a second lets it repeat one
 * whose answer it stopped waiting for. Each may wait 10 s on the store's URL (with its own
 * outbound connection, and no database connection), so more would only let one store pile up
 * that waiting.
 */
const CHAMADAS_POR_LOJA = 2;

const invalida = (mensagem: string, detail = mensagem) => new InvalidInputException([{ campo: 'url', mensagem }], detail);

/**
 * The check a webhook URL passes before anything is sent to it (registration and
 * reactivation): an https URL whose host resolves to an address webhooks may reach, that
 * answers a signed verification POST `{evento: "webhook.verificacao"}` with 200 within 10 s.
 * Anything else (a 410 included) is a 400 naming `url`. A store with CHAMADAS_POR_LOJA
 * calls to its URL running (`chamada`) gets a 429 for another.
 */
@Injectable()
export class VerificacaoUrl {
  private readonly emAndamento = new ConcurrencyLimit<number>(CHAMADAS_POR_LOJA);

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
    return this.chamada(idLoja, () => this.verificarUrl(idLoja, url, segredos));
  }

  /** Runs a call to the store's URL (a verification, a test event) within the store's CHAMADAS_POR_LOJA; a 429 beyond them. */
  async chamada<T>(idLoja: number, chamar: () => Promise<T>): Promise<T> {
    const liberar = await this.emAndamento.acquire(idLoja);
    if (!liberar) {
      throw new ConcurrencyLimitExceeded(
        `Esta loja já tem ${CHAMADAS_POR_LOJA} chamadas simultâneas à URL do webhook em andamento (verificações ou eventos de teste), o limite; repita quando uma terminar (Retry-After).`,
        TIMEOUT_MS / 1000,
      );
    }
    try {
      return await chamar();
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

import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { context, propagation, trace } from '@opentelemetry/api';
import { createSecureContext, rootCertificates } from 'node:tls';
import { Agent, type Dispatcher } from 'undici';
import { Counter, Histogram } from 'prom-client';
import { assinarComTodos, lerRetryAfter, MAX_TRECHO_RESPOSTA, segredosVigentes, trechoDaResposta, type Chaveiro, type Segredos } from '@trilha/delivery-domain';
import { SpanStatusCode } from '@opentelemetry/api';
import { ATTR_ID_LOJA, requestContext, startSpanFrom, traceparentOf } from '@trilha/observability';
import { EnderecoGuard, EnderecoRecusado } from './endereco.guard';
import { Prazo } from './prazo';

/** docs/API.md section 7: the receiver has 10 s to answer. The whole attempt, its DNS resolution included, gets these. */
export const TIMEOUT_MS = 10_000;
/** What is read of a receiver's answer: its status decides; its first 2 KB are kept, the rest up to this discarded (to keep the connection). */
const MAX_CORPO_RESPOSTA = 64 * 1024;

/** Where an attempt goes, and the secrets that sign it (two during a rotation's overlap), as stored: encrypted, or in clear. */
export interface Destino extends Segredos {
  url: string;
}

/** One attempt as the deliveries log shows it (docs/API.md section 7, `tentativas`). */
export interface ResultadoEnvio {
  ok: boolean;
  dataHora: Date;
  /** Where it was sent. */
  url: string;
  /** The request's headers (signature included) as sent, or as they were to be when the connection failed; null when the address was refused or not found first. */
  cabecalhos: Record<string, string> | null;
  statusHttp: number | null;
  duracaoMs: number;
  erro: string | null;
  /** The first 2 KB of the receiver's answer, as text (`trechoDaResposta`); null when it did not answer. */
  resposta: string | null;
  /** `Retry-After` of a 429 or 503, in ms. */
  retryAfterMs?: number;
  /** The attempt's span, which a retry links to. */
  traceparent: string | null;
}

/** The attribute of a later attempt's span naming the span of the delivery's first attempt. */
export const ATTR_PRIMEIRA_TENTATIVA = 'trilha.webhook.first_attempt_span_id';

/** Which attempt this is, for its span. */
export interface Tentativa {
  /** Failed attempts since the delivery was last due afresh (`http.request.resend_count`). */
  anteriores: number;
  /** The span of the delivery's first attempt, when one was made: a later attempt links to it. */
  traceparentPrimeira: string | null;
}

const tentativas = new Counter({ name: 'trilha_webhook_attempts_total', help: 'Webhook POSTs made, by outcome', labelNames: ['outcome'] });
const duracao = new Histogram({
  name: 'trilha_webhook_attempt_duration_seconds',
  help: 'Time from sending a webhook to its answer (or failure)',
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});

/**
 * Sends one signed webhook POST (docs/API.md section 7) and says what happened; it never
 * throws. Success is a 200 within 10 s; a redirect is not followed; anything else (another
 * status, a timeout, a refused or reset connection, garbage instead of HTTP, an untrusted
 * certificate, a forbidden address) is a failed attempt described in `erro`.
 *
 * The attempt's 10 s start before the host is resolved: the SSRF guard's resolution (its own
 * limit is 5 s) and the request share one AbortSignal, so nothing of an attempt outlives them
 * and the dispatcher's lease (LEASE_MS) is always longer than the attempt.
 *
 * The request goes to the address the guard returned (the pool's origin is that IP; the URL's
 * host travels as the Host header and as the TLS server name, so the certificate is checked
 * against the name): no second lookup, and no connection to an address not checked.
 * One connection pool for every store (undici Agent, one pool per address, kept alive): the
 * dispatcher's caps bound how many requests run, not the pool. TLS trusts the default roots
 * plus WEBHOOK_CA_FILE. The stored secrets are decrypted for each attempt (AES-GCM, about as long
 * as the signature's HMAC: a few µs each, keyed with KeyObjects), so no decrypted secret stays
 * in memory beyond it.
 */
export class WebhookClient implements OnApplicationShutdown {
  private readonly logger = new Logger(WebhookClient.name);
  private readonly agent: Agent;

  constructor(
    private readonly guard: EnderecoGuard,
    private readonly chaveiro: Chaveiro,
    caExtra: string | undefined,
  ) {
    this.agent = new Agent({
      // One TLS context for every connection (building one per connection re-parses every root CA).
      // The attempt's 10 s are its Prazo's (below): undici's own timers tick every
      // half second and can fire that much early, so they only back it up.
      connect: { secureContext: createSecureContext({ ca: caExtra ? [...rootCertificates, caExtra] : undefined }), timeout: TIMEOUT_MS + 1_000 },
      headersTimeout: TIMEOUT_MS + 1_000,
      bodyTimeout: TIMEOUT_MS + 1_000,
      keepAliveTimeout: 10_000,
    });
  }

  /**
   * The attempt runs inside an HTTP client span continuing `traceparent` (the delivery's
   * consumer span), so every attempt of a notification, retries made minutes later included,
   * is in the notification's trace; a retry's span links to the first attempt's.
   */
  async enviar(destino: Destino, idWebhook: string, corpo: string, traceparent: string | null, tentativa: Tentativa = { anteriores: 0, traceparentPrimeira: null }): Promise<ResultadoEnvio> {
    const dataHora = new Date();
    const inicio = performance.now();
    const idLoja = requestContext.get()?.idLoja;
    const primeira = tentativa.traceparentPrimeira?.split('-')[2];
    const span = startSpanFrom('POST', traceparent, {
      kind: 'client',
      attributes: {
        'http.request.method': 'POST',
        ...(tentativa.anteriores > 0 && { 'http.request.resend_count': tentativa.anteriores }),
        ...(idLoja !== undefined && { [ATTR_ID_LOJA]: idLoja }),
        // Zipkin's span model has no links: the first attempt's span id is also an attribute.
        ...(primeira && { [ATTR_PRIMEIRA_TENTATIVA]: primeira }),
      },
      links: [tentativa.traceparentPrimeira],
    });
    let cabecalhos: Record<string, string> | null = null;
    const fim = (resultado: Omit<ResultadoEnvio, 'dataHora' | 'duracaoMs' | 'traceparent' | 'url' | 'cabecalhos' | 'resposta'>, resposta: string | null = null): ResultadoEnvio => {
      const duracaoMs = Math.round(performance.now() - inicio);
      tentativas.inc({ outcome: resultado.ok ? 'delivered' : resultado.statusHttp ? `status_${resultado.statusHttp}` : 'error' });
      duracao.observe(duracaoMs / 1000);
      if (resultado.statusHttp !== null) span.setAttribute('http.response.status_code', resultado.statusHttp);
      if (!resultado.ok) span.setAttribute('error.type', resultado.statusHttp ? String(resultado.statusHttp) : (resultado.erro ?? 'erro')).setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      return { ...resultado, dataHora, url: destino.url, cabecalhos, resposta, duracaoMs, traceparent: traceparentOf(span) };
    };
    const prazo = new Prazo(TIMEOUT_MS);
    try {
      const url = new URL(destino.url);
      // The query may carry the store's own credentials: the span names the address without it.
      span.setAttributes({ 'url.full': `${url.origin}${url.pathname}`, 'server.address': url.hostname, 'server.port': Number(url.port || 443) });
      const [endereco] = await this.guard.resolver(url.hostname, prazo.signal);
      const timestamp = Math.floor(dataHora.getTime() / 1000);
      const headers: Record<string, string> = {
        host: url.host,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(corpo)),
        'user-agent': 'Trilha-Webhooks/1.0',
        'webhook-id': idWebhook,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': assinarComTodos(
          segredosVigentes(destino, dataHora.getTime()).map((segredo) => this.chaveiro.decifrar(segredo)),
          idWebhook,
          timestamp,
          corpo,
        ),
      };
      propagation.inject(trace.setSpan(context.active(), span), headers);
      cabecalhos = headers;
      const ip = endereco.family === 6 ? `[${endereco.address}]` : endereco.address;
      const response = await this.agent.request({
        origin: `${url.protocol}//${ip}${url.port ? `:${url.port}` : ''}`,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        // undici takes the TLS server name from the Host header.
        headers,
        body: corpo,
        signal: prazo.signal,
      });
      const resposta = await trechoDoCorpo(response.body, prazo);
      const status = response.statusCode;
      if (status === 200) return fim({ ok: true, statusHttp: status, erro: null }, resposta);
      const retryAfter = status === 429 || status === 503 ? header(response.headers['retry-after']) : undefined;
      return fim(
        {
          ok: false,
          statusHttp: status,
          erro: status >= 300 && status < 400 ? `redirecionamento (${status}) não é seguido` : `status ${status}, esperado 200`,
          retryAfterMs: lerRetryAfter(retryAfter, Date.now()),
        },
        resposta,
      );
    } catch (error) {
      prazo.encerrar();
      return fim({ ok: false, statusHttp: null, erro: descreverFalha(error) });
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.agent.close().catch((error: Error) => this.logger.warn(`closing webhook connections: ${error.message}`));
  }
}

/**
 * The first 2 KB of an answer's body as text, for the deliveries log; the rest is read and
 * discarded up to MAX_CORPO_RESPOSTA (so the connection is kept) without waiting for it, and the
 * attempt's clock stops once the body is done. The status decides the attempt, so a body that
 * ends early, fails, or is still arriving when the attempt's time runs out gives what had arrived.
 */
function trechoDoCorpo(body: Dispatcher.ResponseData['body'], prazo: Prazo): Promise<string> {
  return new Promise((resolve) => {
    const partes: Buffer[] = [];
    let lidos = 0;
    const pronto = () => {
      body.off('data', ler).off('close', pronto);
      prazo.signal.removeEventListener('abort', pronto);
      resolve(trechoDaResposta(Buffer.concat(partes)));
    };
    const ler = (parte: Buffer) => {
      partes.push(parte);
      lidos += parte.length;
      if (lidos >= MAX_TRECHO_RESPOSTA) pronto();
    };
    // A body destroyed already (its connection failed as it arrived) gives no more events.
    if (body.closed) {
      prazo.encerrar();
      return pronto();
    }
    body.on('data', ler).on('close', pronto);
    prazo.signal.addEventListener('abort', pronto);
    body
      .dump({ limit: MAX_CORPO_RESPOSTA })
      .catch(() => undefined)
      .finally(() => prazo.encerrar());
  });
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** A failure as the store reads it in the deliveries log. */
export function descreverFalha(error: unknown): string {
  if (error instanceof EnderecoRecusado) return error.message;
  const falha = error as { name?: string; code?: string; message?: string; cause?: { code?: string } };
  const code = falha.code ?? falha.cause?.code ?? '';
  // The only abort is the attempt's 10 s budget.
  if (falha.name === 'TimeoutError' || falha.name === 'AbortError' || code === 'UND_ERR_ABORTED' || /TIMEOUT/.test(code)) return `sem resposta em ${TIMEOUT_MS / 1000} s`;
  if (code === 'ECONNREFUSED') return 'conexão recusada';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host não encontrado';
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_CLOSED') return 'conexão encerrada pelo receptor';
  if (falha.name === 'HTTPParserError' || /^HPE_/.test(code) || code === 'UND_ERR_INFO' || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') return 'resposta HTTP inválida';
  if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) return `certificado TLS não aceito (${code})`;
  if (falha.name === 'TypeError' && /URL/i.test(falha.message ?? '')) return 'URL inválida';
  return `falha de rede (${code || falha.message || 'desconhecida'})`;
}

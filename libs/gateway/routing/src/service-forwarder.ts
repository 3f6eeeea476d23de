import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { context, propagation, SpanStatusCode, type Attributes, type Span } from '@opentelemetry/api';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Dispatcher, Pool } from 'undici';
import { ATTR_ID_LOJA, loggedUrl, requestContext, withSpanFrom } from '@trilha/observability';
import { ConcurrencyLimit, header, INTERNAL_HEADERS, ORIGENS, problem, sendProblem } from '@trilha/http';
import type { ApiRoute } from './api-catalog';

/** Response headers a service may set that the caller should see. */
const PASSED_BACK = ['content-type', 'location', 'cache-control', 'content-language', 'content-security-policy', 'referrer-policy', 'retry-after'];
/** Kept-alive connections of one gateway replica to each replica of a service, every store's requests shared over them. */
export const CONNECTIONS_PER_SERVICE = 128;

/**
 * Longer than the longest wait a service makes on the caller's behalf: POST /webhook/novo
 * gives the store's URL 10 s to answer its verification (docs/API.md section 7), then answers.
 */
const TIMEOUT_MS = 15_000;
/**
 * Beyond its share of a service's connections, a store's requests wait their turn, up to 64 of
 * them for at most 5 s: a burst of a store's quick requests is served in turn; a store whose
 * requests are slow gets 429s, never the others' connections.
 */
export const QUEUE_PER_STORE = { size: 64, waitMs: 5_000 };
/**
 * Connection errors that prove the request reached no process of the service: a replica that
 * has just stopped listening while its Service still sends it new connections (a rolling update,
 * a deleted pod, a killed process), a name not resolved for a moment. Such a request is sent
 * again: at once to each other replica the gateway knows (`<SERVICE>_URL` with several URLs),
 * then after each delay, to whichever replica the next connection reaches.
 */
const NOT_SENT = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);
/**
 * Connection errors after the request went out and before its answer came back: the replica
 * died with it in hand (kill -9, OOM, a node lost), and may have acted on it. Only a request
 * that may be repeated (`mayRepeat`) is sent again; any other answers 503.
 */
const ANSWER_LOST = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);
export const RESEND_DELAYS_MS = [100, 300, 600];
/** Methods whose repetition changes nothing more than the first request did (RFC 9110, 9.2.2). */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);

/** The kept-alive connections to each replica of a service; each request starts at the next replica in turn. */
class Replicas {
  private next = 0;

  constructor(readonly pools: Pool[]) {}

  /** The replica a request starts at: its later attempts go to the ones after it. */
  turn(): number {
    this.next = (this.next + 1) % this.pools.length;
    return this.next;
  }
}

/** An answer of a service, read whole. */
interface Answer {
  statusCode: number;
  headers: Dispatcher.ResponseData['headers'];
  body: Buffer;
}

export interface ForwarderOptions {
  /** Base URLs of each service's internal port, by service name: one per replica, or one load balancer's. */
  services: Record<string, string[]>;
  internalToken: string;
  /** Requests one store (or, without a token, one client address) may have in flight to one service through this replica. */
  concurrentRequestsPerStore: number;
}

type ForwardedRequest = FastifyRequest & { loja?: { idLoja: number }; apiRoute?: ApiRoute };

/** Whether a request may be sent twice: an idempotent method, or an `Idempotency-Key` its route honours. */
function mayRepeat(request: Pick<ForwardedRequest, 'method' | 'headers' | 'apiRoute'>): boolean {
  return IDEMPOTENT_METHODS.has(request.method) || (request.apiRoute?.idempotencyKey === true && request.headers['idempotency-key'] !== undefined);
}

/**
 * Forwards a public request to the internal port of the service that owns it, over a pool of
 * kept-alive connections to each of its replicas (in turn), with the authenticated store, the
 * correlation id and the trace context. The service validates and answers; its status, body and headers come back as they
 * are. A store holds at most `concurrentRequestsPerStore` of a service's connections: its other
 * requests wait in its own queue (QUEUE_PER_STORE), and one whose requests are slow (a webhook URL
 * that never answers its verification) gets 429s once that queue is full or its wait too long,
 * while the other stores' requests keep finding a free connection.
 */
@Injectable()
export class ServiceForwarder implements OnApplicationShutdown {
  private readonly logger = new Logger(ServiceForwarder.name);
  private readonly replicas = new Map<string, Replicas>();
  private readonly origins = new Map<string, URL[]>();
  private readonly inFlight = new Map<string, ConcurrencyLimit<string>>();

  constructor(private readonly options: ForwarderOptions) {
    for (const [service, urls] of Object.entries(options.services)) {
      this.origins.set(service, urls.map((url) => new URL(url)));
      this.inFlight.set(service, new ConcurrencyLimit(options.concurrentRequestsPerStore, QUEUE_PER_STORE));
      const pool = (url: string) => new Pool(url, { connections: CONNECTIONS_PER_SERVICE, pipelining: 1, keepAliveTimeout: 30_000, headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS });
      this.replicas.set(service, new Replicas(urls.map(pool)));
    }
  }

  async forward(service: string, request: ForwardedRequest, reply: FastifyReply): Promise<void> {
    const replicas = this.replicas.get(service);
    if (!replicas) throw new Error(`no address configured for ${service}`);
    const release = await (this.inFlight.get(service) as ConcurrencyLimit<string>).acquire(request.loja ? `loja:${request.loja.idLoja}` : `ip:${request.ip}`);
    if (!release) {
      const quem = request.loja ? 'Esta loja' : 'Este endereço';
      reply.header('retry-after', '1');
      return sendProblem(
        reply,
        problem(
          429,
          `${quem} já tem ${this.options.concurrentRequestsPerStore} requisições simultâneas em andamento neste serviço, o limite, e esta não teve a vez na sua fila (até ${QUEUE_PER_STORE.size} requisições, por até ${QUEUE_PER_STORE.waitMs / 1000} s); repita quando uma terminar (Retry-After).`,
          request.originalUrl,
        ),
      );
    }
    try {
      await this.send(service, replicas, request, reply);
    } finally {
      release();
    }
  }

  private async send(service: string, replicas: Replicas, request: ForwardedRequest, reply: FastifyReply): Promise<void> {
    const headers: Record<string, string> = {
      [INTERNAL_HEADERS.token]: this.options.internalToken,
      'x-request-id': requestContext.get()?.correlationId ?? '',
      accept: header(request, 'accept') ?? 'application/json',
    };
    if (request.loja) headers[INTERNAL_HEADERS.loja] = String(request.loja.idLoja);
    const idempotencyKey = header(request, 'idempotency-key');
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    const origem = header(request, INTERNAL_HEADERS.origem);
    if (origem && (ORIGENS as readonly string[]).includes(origem)) headers[INTERNAL_HEADERS.origem] = origem;
    const hasBody = request.body !== undefined && !['GET', 'HEAD', 'DELETE'].includes(request.method);
    if (hasBody) headers['content-type'] = 'application/json';
    const body = hasBody ? JSON.stringify(request.body) : undefined;
    await withSpanFrom(request.method, 'active', { kind: 'client' }, (span) =>
      this.exchange(service, replicas, request, reply, { method: request.method as 'GET', path: request.originalUrl, headers, body }, span));
  }

  /** Sends the request with `span`'s context and answers with what the service answered, or a 503 or 504 when it could not. */
  private async exchange(service: string, replicas: Replicas, request: ForwardedRequest, reply: FastifyReply, options: Dispatcher.RequestOptions & { headers: Record<string, string> }, span: Span): Promise<void> {
    if (span.isRecording()) span.setAttributes(this.clientSpanAttributes(service, request));
    propagation.inject(context.active(), options.headers);
    try {
      const upstream = await this.requestUntilAnswered(replicas, options, mayRepeat(request));
      span.setAttribute('http.response.status_code', upstream.statusCode);
      if (upstream.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      reply.status(upstream.statusCode);
      for (const name of PASSED_BACK) {
        const value = upstream.headers[name];
        if (value !== undefined) reply.header(name, value);
      }
      reply.send(upstream.body);
    } catch (error) {
      this.logger.error({ msg: `forwarding to ${service} failed`, error: (error as Error).message });
      const timedOut = /timeout/i.test((error as Error).name + (error as Error).message);
      span.setAttribute('error.type', timedOut ? 'timeout' : 'unavailable').setStatus({ code: SpanStatusCode.ERROR });
      sendProblem(reply, problem(timedOut ? 504 : 503, timedOut ? 'O serviço demorou demais para responder.' : 'Serviço temporariamente indisponível.', request.originalUrl));
    }
  }

  /** The client span's attributes. With several replicas, each attempt may reach another: the span names the service. */
  private clientSpanAttributes(service: string, request: ForwardedRequest): Attributes {
    const origins = this.origins.get(service) as URL[];
    const origin = origins.length === 1 ? origins[0] : new URL(`${origins[0].protocol}//${service}`);
    return {
      'http.request.method': request.method,
      'server.address': origin.hostname,
      ...(origin.port !== '' && { 'server.port': Number(origin.port) }),
      'url.full': `${origin.origin}${loggedUrl(request.originalUrl.split('?')[0])}`,
      ...(request.loja && { [ATTR_ID_LOJA]: request.loja.idLoja }),
    };
  }

  /**
   * The service's answer, sending the request again while it reached no replica or, when
   * `repeatable`, while the replica that had it died before answering: at once to each other
   * replica, then after each of RESEND_DELAYS_MS.
   */
  private async requestUntilAnswered(replicas: Replicas, options: Dispatcher.RequestOptions, repeatable: boolean): Promise<Answer> {
    const { pools } = replicas;
    const first = replicas.turn();
    for (let attempt = 0; ; attempt += 1) {
      try {
        const { statusCode, headers, body } = await pools[(first + attempt) % pools.length].request(options);
        return { statusCode, headers, body: Buffer.from(await body.arrayBuffer()) };
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? '';
        const delayMs = attempt + 1 < pools.length ? 0 : RESEND_DELAYS_MS[attempt + 1 - pools.length];
        if (delayMs === undefined || !(NOT_SENT.has(code) || (repeatable && ANSWER_LOST.has(code)))) throw error;
        if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.replicas.values()].flatMap(({ pools }) => pools.map((pool) => pool.close())));
  }
}

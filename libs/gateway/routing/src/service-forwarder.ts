import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { context, propagation, SpanStatusCode } from '@opentelemetry/api';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Dispatcher, Pool } from 'undici';
import { ATTR_ID_LOJA, loggedUrl, requestContext, withSpanFrom } from '@trilha/observability';
import { ConcurrencyLimit, header, INTERNAL_HEADERS, ORIGENS, problem, sendProblem } from '@trilha/http';

/** Response headers a service may set that the caller should see. */
const PASSED_BACK = ['content-type', 'location', 'cache-control', 'content-language', 'content-security-policy', 'referrer-policy', 'retry-after'];
/** Kept-alive connections of one gateway replica to one service, every store's requests shared over them. */
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
 * a deleted pod), a name not resolved for a moment. Such a request is sent again after each
 * delay, to whichever replica the next connection reaches; any other failure is not, since the
 * service may have acted on it.
 */
const NOT_SENT = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);
export const RESEND_DELAYS_MS = [100, 300, 600];

export interface ForwarderOptions {
  /** Base URL of each service's internal port, by service name. */
  services: Record<string, string>;
  internalToken: string;
  /** Requests one store (or, without a token, one client address) may have in flight to one service through this replica. */
  concurrentRequestsPerStore: number;
}

type ForwardedRequest = FastifyRequest & { loja?: { idLoja: number } };

/**
 * Forwards a public request to the internal port of the service that owns it, over a pool of
 * kept-alive connections, with the authenticated store, the correlation id and the trace
 * context. The service validates and answers; its status, body and headers come back as they
 * are. A store holds at most `concurrentRequestsPerStore` of a service's connections: its other
 * requests wait in its own queue (QUEUE_PER_STORE), and one whose requests are slow (a webhook URL
 * that never answers its verification) gets 429s once that queue is full or its wait too long,
 * while the other stores' requests keep finding a free connection.
 */
@Injectable()
export class ServiceForwarder implements OnApplicationShutdown {
  private readonly logger = new Logger(ServiceForwarder.name);
  private readonly pools = new Map<string, Pool>();
  private readonly origins = new Map<string, URL>();
  private readonly inFlight = new Map<string, ConcurrencyLimit<string>>();

  constructor(private readonly options: ForwarderOptions) {
    for (const [service, url] of Object.entries(options.services)) {
      this.origins.set(service, new URL(url));
      this.inFlight.set(service, new ConcurrencyLimit(options.concurrentRequestsPerStore, QUEUE_PER_STORE));
      this.pools.set(service, new Pool(url, { connections: CONNECTIONS_PER_SERVICE, pipelining: 1, keepAliveTimeout: 30_000, headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS }));
    }
  }

  async forward(service: string, request: ForwardedRequest, reply: FastifyReply): Promise<void> {
    const pool = this.pools.get(service);
    if (!pool) throw new Error(`no address configured for ${service}`);
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
      await this.send(service, pool, request, reply);
    } finally {
      release();
    }
  }

  private async send(service: string, pool: Pool, request: ForwardedRequest, reply: FastifyReply): Promise<void> {
    const headers: Record<string, string> = {
      [INTERNAL_HEADERS.token]: this.options.internalToken,
      'x-request-id': requestContext.get()?.correlationId ?? '',
      accept: header(request, 'accept') ?? 'application/json',
    };
    if (request.loja) headers[INTERNAL_HEADERS.loja] = String(request.loja.idLoja);
    const origem = header(request, INTERNAL_HEADERS.origem);
    if (origem && (ORIGENS as readonly string[]).includes(origem)) headers[INTERNAL_HEADERS.origem] = origem;
    const hasBody = request.body !== undefined && !['GET', 'HEAD', 'DELETE'].includes(request.method);
    if (hasBody) headers['content-type'] = 'application/json';
    const origin = this.origins.get(service) as URL;
    // The forwarding's client span: the service's server span is its child.
    const attributes = {
      'http.request.method': request.method,
      'server.address': origin.hostname,
      'server.port': Number(origin.port),
      'url.full': `${origin.origin}${loggedUrl(request.originalUrl.split('?')[0])}`,
      ...(request.loja && { [ATTR_ID_LOJA]: request.loja.idLoja }),
    };
    await withSpanFrom(request.method, 'active', { kind: 'client', attributes }, async (span) => {
      propagation.inject(context.active(), headers);
      try {
        const upstream = await this.requestUntilSent(pool, {
          method: request.method as 'GET',
          path: request.originalUrl,
          headers,
          body: hasBody ? JSON.stringify(request.body) : undefined,
        });
        span.setAttribute('http.response.status_code', upstream.statusCode);
        if (upstream.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        reply.status(upstream.statusCode);
        for (const name of PASSED_BACK) {
          const value = upstream.headers[name];
          if (value !== undefined) reply.header(name, value);
        }
        reply.send(Buffer.from(await upstream.body.arrayBuffer()));
      } catch (error) {
        this.logger.error({ msg: `forwarding to ${service} failed`, error: (error as Error).message });
        const timedOut = /timeout/i.test((error as Error).name + (error as Error).message);
        span.setAttribute('error.type', timedOut ? 'timeout' : 'unavailable').setStatus({ code: SpanStatusCode.ERROR });
        sendProblem(reply, problem(timedOut ? 504 : 503, timedOut ? 'O serviço demorou demais para responder.' : 'Serviço temporariamente indisponível.', request.originalUrl));
      }
    });
  }

  private async requestUntilSent(pool: Pool, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
    for (let resent = 0; ; resent += 1) {
      try {
        return await pool.request(options);
      } catch (error) {
        const delayMs = RESEND_DELAYS_MS[resent];
        if (delayMs === undefined || !NOT_SENT.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
        await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.pools.values()].map((pool) => pool.close()));
  }
}

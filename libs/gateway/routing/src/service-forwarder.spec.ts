import { context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import Fastify, { type FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { traceRequestHook } from '@trilha/observability';
import { QUEUE_PER_STORE, RESEND_DELAYS_MS, ServiceForwarder } from './service-forwarder';

/** A service whose `/lento` answers only when told to, and whose `/rapido` answers at once. */
async function servico(): Promise<{ server: Server; url: string; pendentes: ServerResponse[] }> {
  const pendentes: ServerResponse[] = [];
  const server = createServer((request, response) => {
    if (request.url === '/lento') pendentes.push(response);
    else response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, pendentes };
}

describe('ServiceForwarder', () => {
  let upstream: Awaited<ReturnType<typeof servico>>;
  let forwarder: ServiceForwarder;
  let app: FastifyInstance;

  beforeAll(async () => {
    upstream = await servico();
    forwarder = new ServiceForwarder({ services: { servico: [upstream.url] }, internalToken: 'x'.repeat(32), concurrentRequestsPerStore: 2 });
    app = Fastify();
    // The store, as the gateway's authentication sets it.
    app.addHook('preHandler', async (request) => void Object.assign(request, { loja: { idLoja: Number(request.headers['x-loja']) } }));
    app.all('/*', (request, reply) => forwarder.forward('servico', request, reply));
  });

  afterAll(async () => {
    await app.close();
    await forwarder.onApplicationShutdown();
    upstream.server.closeAllConnections();
    upstream.server.close();
  });

  it('forwards at most the limit of one store’s requests at once, queues the next ones in turn, answers 429 naming the limit once its queue is full, and serves another store meanwhile', async () => {
    const pedir = (loja: number, path: string) => app.inject({ method: 'GET', url: path, headers: { 'x-loja': String(loja) } });
    const lentos = [pedir(1, '/lento'), pedir(1, '/lento')];
    while (upstream.pendentes.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));

    // Beyond the store's two places its requests wait, up to the queue's size.
    const naFila = Array.from({ length: QUEUE_PER_STORE.size }, () => pedir(1, '/rapido'));
    // Injected requests reach the route in no fixed order: the queue is full once every one has.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const recusada = await pedir(1, '/rapido');
    expect(recusada.statusCode).toBe(429);
    expect(recusada.headers['retry-after']).toBe('1');
    expect(recusada.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(recusada.json()).toMatchObject({ status: 429, detail: expect.stringMatching(/^Esta loja já tem 2 requisições simultâneas em andamento neste serviço/) });
    expect((await pedir(2, '/rapido')).statusCode).toBe(200);
    expect(upstream.pendentes).toHaveLength(2);

    // A request answered gives its place to the first one waiting: the queue drains in turn.
    upstream.pendentes.splice(0).forEach((response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    expect((await Promise.all(lentos)).map((response) => response.statusCode)).toEqual([200, 200]);
    expect(new Set((await Promise.all(naFila)).map((response) => response.statusCode))).toEqual(new Set([200]));
    expect((await pedir(1, '/rapido')).statusCode).toBe(200);
  });

  describe('a service that refuses the connection', () => {
    /** A port of this machine nothing listens on (yet). */
    async function portLivre(): Promise<number> {
      const server = createServer();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      await new Promise((resolve) => server.close(resolve));
      return port;
    }

    async function encaminhandoPara(port: number): Promise<{ app: FastifyInstance; fechar: () => Promise<void> }> {
      const outro = new ServiceForwarder({ services: { servico: [`http://127.0.0.1:${port}`] }, internalToken: 'x'.repeat(32), concurrentRequestsPerStore: 2 });
      const outroApp = Fastify();
      outroApp.all('/*', (request, reply) => outro.forward('servico', request, reply));
      return { app: outroApp, fechar: async () => { await outroApp.close(); await outro.onApplicationShutdown(); } };
    }

    it('sends the request again until a process listens, as when a replica has just stopped and its Service still sends it connections', async () => {
      const port = await portLivre();
      const { app: gateway, fechar } = await encaminhandoPara(port);
      const recebidas: string[] = [];
      const tardio = createServer((request, response) => {
        recebidas.push(`${request.method} ${request.url}`);
        response.writeHead(201, { 'content-type': 'application/json' }).end('{"criado":true}');
      });
      setTimeout(() => tardio.listen(port, '127.0.0.1'), RESEND_DELAYS_MS[0] + 50);
      try {
        const response = await gateway.inject({ method: 'POST', url: '/atendimentos', payload: { canal: 'chat' } });
        expect(response.statusCode).toBe(201);
        expect(response.json()).toEqual({ criado: true });
        expect(recebidas).toEqual(['POST /atendimentos']);
      } finally {
        await fechar();
        tardio.closeAllConnections();
        tardio.close();
      }
    });

    it('answers 503 once the resends are spent', async () => {
      const { app: gateway, fechar } = await encaminhandoPara(await portLivre());
      try {
        const started = Date.now();
        const response = await gateway.inject({ method: 'POST', url: '/atendimentos', payload: { canal: 'chat' } });
        expect(response.statusCode).toBe(503);
        expect(Date.now() - started).toBeGreaterThanOrEqual(RESEND_DELAYS_MS.reduce((sum, delay) => sum + delay, 0));
      } finally {
        await fechar();
      }
    });
  });

  describe('two replicas, one of which dies with the request in hand', () => {
    let viva: Server;
    let morta: Server;
    const recebidas: Record<'viva' | 'morta', string[]> = { viva: [], morta: [] };
    let gateway: FastifyInstance;
    let duas: ServiceForwarder;
    /** The route as the catalog gives it: this one honours Idempotency-Key. */
    const rota = { idempotencyKey: true };

    const ouvir = async (nome: 'viva' | 'morta') => {
      const server = createServer((request, response) => {
        recebidas[nome].push(`${request.method} ${request.url}`);
        // A process killed with requests in hand: the connection ends, no answer comes.
        if (nome === 'morta') return void request.socket.destroy();
        response.writeHead(request.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' }).end(`{"replica":"${nome}"}`);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return server;
    };

    beforeAll(async () => {
      [viva, morta] = [await ouvir('viva'), await ouvir('morta')];
      const url = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      duas = new ServiceForwarder({ services: { servico: [url(morta), url(viva)] }, internalToken: 'x'.repeat(32), concurrentRequestsPerStore: 8 });
      gateway = Fastify();
      gateway.addHook('preHandler', async (request) => void Object.assign(request, { apiRoute: rota }));
      gateway.all('/*', (request, reply) => duas.forward('servico', request, reply));
    });

    beforeEach(() => {
      recebidas.viva.length = 0;
      recebidas.morta.length = 0;
    });

    afterAll(async () => {
      await gateway.close();
      await duas.onApplicationShutdown();
      for (const server of [viva, morta]) {
        server.closeAllConnections();
        server.close();
      }
    });

    it('sends a read again, and the other replica answers it', async () => {
      const answers = await Promise.all(Array.from({ length: 6 }, () => gateway.inject({ method: 'GET', url: '/atendimentos/1' })));
      expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 200));
      expect(answers.map((answer) => answer.json())).toEqual(answers.map(() => ({ replica: 'viva' })));
      expect(recebidas.morta.length).toBeGreaterThan(0);
    });

    it('sends a creation again only when it carries an Idempotency-Key its route honours; without one, the answer is a 503', async () => {
      const comChave = await Promise.all(Array.from({ length: 6 }, (_, n) => gateway.inject({ method: 'POST', url: '/atendimentos', headers: { 'idempotency-key': `chave-${n}` }, payload: {} })));
      expect(comChave.map((answer) => answer.statusCode)).toEqual(comChave.map(() => 201));
      expect(recebidas.morta.length).toBeGreaterThan(0);

      recebidas.morta.length = 0;
      recebidas.viva.length = 0;
      const semChave = await Promise.all(Array.from({ length: 6 }, () => gateway.inject({ method: 'POST', url: '/atendimentos', payload: {} })));
      const statuses = semChave.map((answer) => answer.statusCode);
      // Each one the dying replica took is lost to the caller, and never sent twice.
      expect(statuses.filter((status) => status === 503)).toHaveLength(recebidas.morta.length);
      expect(recebidas.morta.length + recebidas.viva.length).toBe(semChave.length);
    });

    it('passes the Idempotency-Key on to the service', async () => {
      const seen: (string | undefined)[] = [];
      viva.prependListener('request', (request) => seen.push(request.headers['idempotency-key'] as string | undefined));
      await gateway.inject({ method: 'POST', url: '/atendimentos', headers: { 'idempotency-key': '"k-1"' }, payload: {} });
      expect(seen.at(-1)).toBe('"k-1"');
    });
  });

  describe('the trace context it sends', () => {
    const spans = new InMemorySpanExporter();
    const recebidos: (string | undefined)[] = [];
    /** The span id of each request's server span, recorded or not. */
    const servidores: string[] = [];
    let servicoTraceado: Server;
    let traceado: ServiceForwarder;
    let gateway: FastifyInstance;

    beforeAll(async () => {
      // Parent-based, as in production: a request's `traceparent` decides whether it is sampled.
      new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }).register();
      servicoTraceado = createServer((request, response) => {
        recebidos.push(request.headers.traceparent as string | undefined);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
      await new Promise<void>((resolve) => servicoTraceado.listen(0, '127.0.0.1', resolve));
      traceado = new ServiceForwarder({ services: { servico: [`http://127.0.0.1:${(servicoTraceado.address() as AddressInfo).port}`] }, internalToken: 'x'.repeat(32), concurrentRequestsPerStore: 2 });
      gateway = Fastify();
      gateway.addHook('onRequest', traceRequestHook);
      gateway.addHook('onRequest', async () => void servidores.push(trace.getActiveSpan()?.spanContext().spanId ?? ''));
      gateway.all('/*', (request, reply) => traceado.forward('servico', request, reply));
    });

    afterAll(async () => {
      await gateway.close();
      await traceado.onApplicationShutdown();
      servicoTraceado.close();
      trace.disable();
      context.disable();
      propagation.disable();
    });

    const traceId = () => randomBytes(16).toString('hex');
    const pedir = (traceparent: string) => gateway.inject({ method: 'GET', url: '/rastreio', headers: { traceparent } });

    it('of a sampled trace: its client span’s, a child of the server span', async () => {
      const id = traceId();
      await pedir(`00-${id}-${randomBytes(8).toString('hex')}-01`);
      const [cliente, servidor] = spans.getFinishedSpans().filter((span) => span.spanContext().traceId === id);
      expect(cliente.parentSpanContext?.spanId).toBe(servidor.spanContext().spanId);
      expect(recebidos.at(-1)).toBe(`00-${id}-${cliente.spanContext().spanId}-01`);
    });

    it('of a trace not sampled: the server span’s as it is, and no span recorded', async () => {
      const id = traceId();
      await pedir(`00-${id}-${randomBytes(8).toString('hex')}-00`);
      expect(recebidos.at(-1)).toBe(`00-${id}-${servidores.at(-1)}-00`);
      expect(spans.getFinishedSpans().filter((span) => span.spanContext().traceId === id)).toEqual([]);
    });
  });
});

import { Webhook as StandardWebhook } from 'standardwebhooks';
import { TOPICS } from '@trilha/contracts';
import {
  apiClient, atendimentoCriado, atendimentoEncerrado, atendimentoMensagem, createStore, eventPublisher, eventually, expectInvalid, expectProblem, isVerification, queueWith, registerWebhook, testStack, WebhookReceiver, type ReceivedRequest,
} from '@trilha/testing';

const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);
const admin = { 'x-admin-key': stack.adminApiKey };
const kafka = eventPublisher(stack);
/** The test stack's compressed WEBHOOK_RETRY_SCHEDULE (tools/test.mjs). */
const AGENDA_MS = [500, 1000, 1500, 2000, 2500];
const receiver = WebhookReceiver.forTestFile(stack);

afterAll(() => kafka.close());

/** A new store whose webhook is this receiver's path. */
async function comWebhook(path: string, flags: Record<string, boolean> = {}) {
  const loja = await createStore();
  const { segredo } = await registerWebhook(loja, receiver.url(path), flags);
  return { ...loja, segredo };
}

const eventoDe = (request: ReceivedRequest) => JSON.parse(request.body) as { evento: string; data: Record<string, unknown> };

describe('POST /webhook/novo (docs/API.md section 7)', () => {
  it('verifies the URL with a signed call, then registers with every flag on by default and a whsec_ secret', async () => {
    const loja = await createStore();
    const response = await api('POST', '/webhook/novo', { token: loja.token, body: { url: receiver.url('/registro') } });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      idWebhook: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: receiver.url('/registro'),
      eventos: { atendimentoCriado: true, atendimentoMensagem: true, atendimentoEncerrado: true, aplicativo: true },
      segredo: expect.stringMatching(/^whsec_/),
      criadoEm: expect.stringMatching(/Z$/),
      saude: { ultimaEntrega: null, ultimaFalha: null, ultimoErro: null, falhasSeguidas: 0, taxaSucesso24h: null, ativo: true, motivoDesativacao: null, dataDesativacao: null },
    });
    const [verificacao] = receiver.requests('/registro');
    const body = new StandardWebhook(response.body.segredo).verify(verificacao.body, verificacao.headers as Record<string, string>);
    expect(body).toEqual({ evento: 'webhook.verificacao', data: { idLoja: loja.idLoja, desafio: expect.any(String) } });

    const consulta = await api('GET', '/webhook', { token: loja.token });
    expect(consulta.status).toBe(200);
    const { segredo: _segredo, ...semSegredo } = response.body;
    expect(consulta.body).toEqual(semSegredo);

    // Registering again replaces it, with a new secret and the flags given.
    const outra = await api('POST', '/webhook/novo', { token: loja.token, body: { url: receiver.url('/registro-2'), atendimentoMensagem: false, aplicativo: false } });
    expect(outra.status).toBe(201);
    expect(outra.body.idWebhook).not.toBe(response.body.idWebhook);
    expect(outra.body.segredo).not.toBe(response.body.segredo);
    expect((await api('GET', '/webhook', { token: loja.token })).body).toMatchObject({
      url: receiver.url('/registro-2'),
      eventos: { atendimentoCriado: true, atendimentoMensagem: false, atendimentoEncerrado: true, aplicativo: false },
    });
  });

  it('refuses http, private and metadata addresses, unknown hosts and bad bodies, writing nothing', async () => {
    const loja = await createStore();
    const refused = async (body: unknown, campo = 'url') => {
      const response = await api('POST', '/webhook/novo', { token: loja.token, body });
      expectInvalid(response, campo);
      return response;
    };
    expect((await refused({ url: receiver.url('/http').replace('https:', 'http:') })).body.erros[0].mensagem).toMatch(/https/);
    for (const url of ['https://10.0.0.1/hook', 'https://192.168.0.10/hook', 'https://169.254.169.254/latest/meta-data', 'https://[::1]:9/hook', 'https://[fd00:ec2::254]/', 'https://0.0.0.0/']) {
      expect((await refused({ url })).body.detail).toMatch(/não permitido/);
    }
    expect((await refused({ url: 'https://nao-existe.invalid/hook' })).body.detail).toMatch(/não encontrado/);
    await refused({ url: 'não é uma url' });
    await refused({ url: receiver.url('/x'), atendimentoCriado: 'sim' }, 'atendimentoCriado');
    await refused({ url: receiver.url('/x'), eventos: [] }, 'eventos');
    await refused({}, 'url');
    expectProblem(await api('POST', '/webhook/novo', { token: loja.token, rawBody: '{"url": ' }), 400);
    expectProblem(await api('POST', '/webhook/novo', { token: loja.token, body: { url: `https://example.com/${'x'.repeat(1024 * 1024)}` } }), 413);
    expectProblem(await api('GET', '/webhook', { token: loja.token }), 404);
    expect(receiver.requests('/x')).toEqual([]);
  });

  it('refuses the IPv6 forms of loopback and metadata addresses, writing nothing', async () => {
    const loja = await createStore();
    // IPv4-compatible, IPv4-mapped, IPv4-translated, NAT64, 6to4 and Teredo forms of 127.0.0.1 and 169.254.169.254.
    for (const url of [
      'https://[::7f00:1]/hook', 'https://[::a9fe:a9fe]/hook', 'https://[::ffff:a9fe:a9fe]/hook', 'https://[::ffff:0:7f00:1]/hook',
      'https://[64:ff9b::a9fe:a9fe]/hook', 'https://[64:ff9b:1::a9fe:a9fe]/hook', 'https://[2002:7f00:1::]/hook', 'https://[2001:0:a9fe:a9fe::]/hook',
    ]) {
      const response = await api('POST', '/webhook/novo', { token: loja.token, body: { url } });
      expectInvalid(response, 'url');
      expect(response.body.detail).toMatch(/não permitido/);
    }
    expectProblem(await api('GET', '/webhook', { token: loja.token }), 404);
  });

  it('refuses a URL whose verification is not a 200, saying what it got', async () => {
    const loja = await createStore();
    receiver.on('/verificacao-500', () => ({ status: 500 }));
    const erro = await api('POST', '/webhook/novo', { token: loja.token, body: { url: receiver.url('/verificacao-500') } });
    expectProblem(erro, 400);
    expect(erro.body.detail).toMatch(/status 500/);
    receiver.on('/verificacao-302', () => ({ status: 302, headers: { location: receiver.url('/registro') } }));
    expect((await api('POST', '/webhook/novo', { token: loja.token, body: { url: receiver.url('/verificacao-302') } })).body.detail).toMatch(/redirecionamento \(302\)/);
    const fechada = await api('POST', '/webhook/novo', { token: loja.token, body: { url: 'https://localhost:9/fechada' } });
    expectProblem(fechada, 400);
    expect(fechada.body.detail).toMatch(/conexão recusada/);
    expectProblem(await api('GET', '/webhook', { token: loja.token }), 404);
  });

  it('refuses a URL that does not answer the verification within 10 s', async () => {
    const loja = await createStore();
    receiver.on('/verificacao-muda', () => ({ hang: true }));
    const started = Date.now();
    const response = await api('POST', '/webhook/novo', { token: loja.token, body: { url: receiver.url('/verificacao-muda') } });
    expectProblem(response, 400);
    expect(response.body.detail).toMatch(/sem resposta em 10 s/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(10_000);
    expectProblem(await api('GET', '/webhook', { token: loja.token }), 404);
  });

  it('removes the registration with DELETE /webhook; events then go to the queue', async () => {
    const loja = await comWebhook('/removido');
    expect((await api('DELETE', '/webhook', { token: loja.token })).status).toBe(204);
    expectProblem(await api('GET', '/webhook', { token: loja.token }), 404);
    expect((await api('DELETE', '/webhook', { token: loja.token })).status).toBe(204);
    const evento = atendimentoCriado(loja.idLoja);
    await kafka.publish(TOPICS.atendimento, [evento]);
    const fila = await queueWith(loja, 1);
    expect(fila.eventos[0]).toMatchObject({ evento: 'atendimento.criado', data: evento.data, entregaFalhou: false });
    expect(receiver.notifications('/removido')).toEqual([]);
  });
});

describe('push (docs/API.md section 7)', () => {
  it('delivers every event type as {evento, data} with Standard Webhooks headers, a valid signature and traceparent', async () => {
    const loja = await comWebhook('/todos');
    const eventos = [atendimentoCriado(loja.idLoja), atendimentoMensagem(loja.idLoja), atendimentoEncerrado(loja.idLoja)];
    await kafka.publish(TOPICS.atendimento, eventos);
    const removido = await api('POST', `/admin/lojas/${loja.idLoja}/aplicativo/remover`, { headers: admin });
    expect(removido.status).toBe(202);

    const recebidos = await eventually('four notifications', () => (receiver.notifications('/todos').length >= 4 ? receiver.notifications('/todos') : undefined));
    const verifier = new StandardWebhook(loja.segredo);
    for (const request of recebidos) {
      expect(request.headers['content-type']).toBe('application/json');
      expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
      expect(request.headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
      expect(verifier.verify(request.body, request.headers as Record<string, string>)).toEqual(JSON.parse(request.body));
    }
    // The three conversation events in their order; the app removal comes from another topic.
    expect(recebidos.map(eventoDe).filter((body) => body.evento !== 'aplicativo.removido')).toEqual(eventos.map((evento) => ({ evento: evento.type, data: evento.data })));
    expect(recebidos.map(eventoDe)).toContainEqual({ evento: 'aplicativo.removido', data: removido.body });
    for (const evento of eventos) {
      const request = recebidos.find((r) => r.headers['webhook-id'] === evento.id)!;
      // The webhook's trace continues the event's.
      expect(String(request.headers.traceparent).split('-')[1]).toBe(evento.traceparent!.split('-')[1]);
    }

    const entregas = await eventually('four delivered', async () => {
      const response = await api('GET', '/webhook/entregas?status=entregue', { token: loja.token });
      return response.body.total === 4 ? response.body : undefined;
    });
    expect(entregas.entregas.find((e: { idEvento: string }) => e.idEvento === eventos[0].id)).toEqual({
      idEntrega: expect.any(String),
      idEvento: eventos[0].id,
      evento: 'atendimento.criado',
      status: 'entregue',
      ocorridoEm: eventos[0].occurredAt,
      proximaTentativa: null,
      tentativas: [{ numero: 1, dataHora: expect.stringMatching(/Z$/), statusHttp: 200, duracaoMs: expect.any(Number), erro: null }],
    });
  });

  it('neither sends nor queues an event whose flag is off', async () => {
    const loja = await comWebhook('/flags', { atendimentoMensagem: false });
    const desligado = atendimentoMensagem(loja.idLoja);
    const ligado = atendimentoCriado(loja.idLoja);
    await kafka.publish(TOPICS.atendimento, [desligado, ligado]);
    await eventually('the enabled event', () => receiver.notifications('/flags').length >= 1 || undefined);
    // Both are on the store's partition, in order: the disabled one was handled first.
    expect(receiver.notifications('/flags').map((request) => request.headers['webhook-id'])).toEqual([ligado.id]);
    expect((await api('GET', '/fila/lista', { token: loja.token })).body).toEqual({ total: 0, eventos: [] });
    expect((await api('GET', '/webhook/entregas', { token: loja.token })).body.total).toBe(1);
  });

  it('retries on the schedule with jitter, records every attempt, and queues the event after the 6th failure', async () => {
    receiver.on('/sempre-500', (request) => (isVerification(request) ? { status: 200 } : { status: 500 }));
    const loja = await comWebhook('/sempre-500');
    const evento = atendimentoCriado(loja.idLoja);
    await kafka.publish(TOPICS.atendimento, [evento]);

    const fila = await queueWith(loja, 1);
    expect(fila.eventos).toEqual([{ idDocumento: expect.any(String), evento: 'atendimento.criado', data: evento.data, dataCriacao: expect.stringMatching(/Z$/), entregaFalhou: true }]);

    const tentativas = receiver.notifications('/sempre-500');
    expect(tentativas).toHaveLength(6);
    expect(new Set(tentativas.map((request) => request.headers['webhook-id']))).toEqual(new Set([evento.id]));

    const { body } = await api('GET', '/webhook/entregas?status=falhou', { token: loja.token });
    expect(body).toMatchObject({ pagina: 1, porPagina: 20, total: 1, totalPaginas: 1 });
    const registro: { numero: number; dataHora: string; statusHttp: number; duracaoMs: number; erro: string }[] = body.entregas[0].tentativas;
    expect(registro.map((t) => [t.numero, t.statusHttp, t.erro])).toEqual([1, 2, 3, 4, 5, 6].map((numero) => [numero, 500, 'status 500, esperado 200']));
    // Each wait, from the end of a failed attempt to the start of the next, is the schedule's ±10 %
    // (plus the dispatcher's own latency, up to half a second on a loaded machine).
    registro.slice(1).forEach((tentativa, index) => {
      const anterior = registro[index];
      const espera = Date.parse(tentativa.dataHora) - (Date.parse(anterior.dataHora) + anterior.duracaoMs);
      expect(espera).toBeGreaterThanOrEqual(AGENDA_MS[index] * 0.9 - 5);
      expect(espera).toBeLessThanOrEqual(AGENDA_MS[index] * 1.1 + 500);
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(receiver.notifications('/sempre-500')).toHaveLength(6);
  });

  it('honours Retry-After on 503 and 429, within the largest interval of the schedule', async () => {
    const loja = await comWebhook('/retry-after');
    receiver.on('/retry-after', (_request, index) => {
      if (index === 1) return { status: 503, headers: { 'retry-after': '2' } };
      if (index === 2) return { status: 429, headers: { 'retry-after': '3600' } };
      return { status: 200 };
    });
    await kafka.publish(TOPICS.atendimento, [atendimentoCriado(loja.idLoja)]);
    const entrega = await eventually('delivered at the 3rd attempt', async () => {
      const response = await api('GET', '/webhook/entregas', { token: loja.token });
      return response.body.entregas[0]?.status === 'entregue' ? response.body.entregas[0] : undefined;
    }, undefined, 200);
    const [primeira, segunda, terceira] = entrega.tentativas as { dataHora: string; statusHttp: number; duracaoMs: number }[];
    expect([primeira.statusHttp, segunda.statusHttp, terceira.statusHttp]).toEqual([503, 429, 200]);
    const espera = (depois: typeof primeira, antes: typeof primeira) => Date.parse(depois.dataHora) - Date.parse(antes.dataHora) - antes.duracaoMs;
    // Retry-After: 2 instead of the schedule's 500 ms; Retry-After: 3600 capped at its largest
    // interval, 2.5 s. The upper bounds leave a loaded machine a second to pick the retry up.
    expect(espera(segunda, primeira)).toBeGreaterThanOrEqual(2000 - 5);
    expect(espera(segunda, primeira)).toBeLessThan(2000 + 1000);
    expect(espera(terceira, segunda)).toBeGreaterThanOrEqual(2500 - 5);
    expect(espera(terceira, segunda)).toBeLessThan(2500 + 1000);
  });

  it('counts a redirect, garbage and a closed connection as failed attempts, and goes on', async () => {
    const loja = await comWebhook('/ruim');
    receiver.on('/ruim', (_request, index) => {
      if (index === 1) return { status: 302, headers: { location: receiver.url('/destino-do-redirect') } };
      if (index === 2) return { garbage: true };
      if (index === 3) return { closeConnection: true };
      return { status: 200 };
    });
    await kafka.publish(TOPICS.atendimento, [atendimentoCriado(loja.idLoja)]);
    const entrega = await eventually('delivered at the 4th attempt', async () => {
      const response = await api('GET', '/webhook/entregas', { token: loja.token });
      return response.body.entregas[0]?.status === 'entregue' ? response.body.entregas[0] : undefined;
    }, undefined, 200);
    expect(entrega.tentativas.map((t: { statusHttp: number | null; erro: string | null }) => [t.statusHttp, t.erro])).toEqual([
      [302, 'redirecionamento (302) não é seguido'],
      [null, 'resposta HTTP inválida'],
      [null, 'conexão encerrada pelo receptor'],
      [200, null],
    ]);
    expect(receiver.requests('/destino-do-redirect')).toEqual([]);
  });

  it('makes the first attempts of a store’s events in the order the events occurred', async () => {
    const loja = await comWebhook('/ordem');
    receiver.on('/ordem', (_request, index) => (index === 1 ? { status: 500 } : { status: 200, delayMs: 20 + (index % 3) * 15 }));
    const eventos = Array.from({ length: 12 }, (_, index) => atendimentoMensagem(loja.idLoja, `mensagem ${index}`));
    await kafka.publish(TOPICS.atendimento, eventos);
    await eventually('all delivered, the first one retried', () => receiver.confirmations('/ordem').size === 12 || undefined);
    const primeiras: string[] = [];
    for (const request of receiver.notifications('/ordem')) {
      const id = request.headers['webhook-id'] as string;
      if (!primeiras.includes(id)) primeiras.push(id);
    }
    expect(primeiras).toEqual(eventos.map((evento) => evento.id));
    // The first event failed once and was retried while the later ones went on.
    expect(receiver.notifications('/ordem').filter((r) => r.headers['webhook-id'] === eventos[0].id)).toHaveLength(2);
  });

  it('resends a delivery on request, and lists deliveries page by page', async () => {
    const loja = await comWebhook('/reenvio');
    const eventos = [atendimentoCriado(loja.idLoja), atendimentoEncerrado(loja.idLoja)];
    await kafka.publish(TOPICS.atendimento, eventos);
    const lista = await eventually('two delivered', async () => {
      const response = await api('GET', '/webhook/entregas', { token: loja.token });
      return response.body.entregas.filter((e: { status: string }) => e.status === 'entregue').length === 2 ? response.body : undefined;
    });
    expect(lista.entregas.map((e: { idEvento: string }) => e.idEvento)).toEqual([eventos[1].id, eventos[0].id]);
    const pagina2 = await api('GET', '/webhook/entregas?pagina=2&porPagina=1', { token: loja.token });
    expect(pagina2.body).toMatchObject({ pagina: 2, porPagina: 1, total: 2, totalPaginas: 2, entregas: [{ idEvento: eventos[0].id }] });
    const alemDaUltima = await api('GET', '/webhook/entregas?pagina=3&porPagina=1', { token: loja.token });
    expect(alemDaUltima.body).toEqual({ pagina: 3, porPagina: 1, total: 2, totalPaginas: 2, entregas: [], proximoCursor: null });

    const idEntrega = lista.entregas[1].idEntrega;
    const reenvio = await api('POST', `/webhook/entregas/${idEntrega}/reenviar`, { token: loja.token });
    expect(reenvio.status).toBe(202);
    // The resend is due now: the answer says so.
    expect(reenvio.body).toMatchObject({ idEntrega, idEvento: eventos[0].id, status: 'entregue', proximaTentativa: expect.stringMatching(/Z$/) });
    expect(Math.abs(Date.parse(reenvio.body.proximaTentativa) - Date.now())).toBeLessThan(5000);
    await eventually('the resend', () => (receiver.notifications('/reenvio').filter((r) => r.headers['webhook-id'] === eventos[0].id).length === 2 || undefined));
    const depois = await eventually('two attempts in the log', async () => {
      const response = await api('GET', '/webhook/entregas', { token: loja.token });
      const entrega = response.body.entregas.find((e: { idEntrega: string }) => e.idEntrega === idEntrega);
      return entrega.tentativas.length === 2 ? entrega : undefined;
    });
    expect(depois).toMatchObject({ status: 'entregue', tentativas: [{ numero: 1, statusHttp: 200 }, { numero: 2, statusHttp: 200 }] });

    const outra = await createStore();
    expectProblem(await api('POST', `/webhook/entregas/${idEntrega}/reenviar`, { token: outra.token }), 404);
    expectProblem(await api('POST', '/webhook/entregas/00000000-0000-4000-8000-000000000000/reenviar', { token: loja.token }), 404);
    expectProblem(await api('POST', '/webhook/entregas/nao-e-um-id/reenviar', { token: loja.token }), 404);
    expect((await api('GET', '/webhook/entregas', { token: outra.token })).body).toEqual({ pagina: 1, porPagina: 20, total: 0, totalPaginas: 0, entregas: [], proximoCursor: null });
    for (const query of ['pagina=0', 'porPagina=101', 'porPagina=abc', 'status=perdida', 'outro=1']) {
      expectProblem(await api('GET', `/webhook/entregas?${query}`, { token: loja.token }), 400);
    }
  });
});

describe('isolation (docs/API.md section 7)', () => {
  it('a store whose endpoint never answers does not delay another store', async () => {
    const lenta = await comWebhook('/pendura');
    receiver.on('/pendura', () => ({ hang: true }));
    const rapida = await comWebhook('/rapida');
    // A flood of the hanging store's events first, then the other store's, one by one.
    await kafka.publish(TOPICS.atendimento, Array.from({ length: 50 }, () => atendimentoMensagem(lenta.idLoja)));
    await eventually('the hanging store’s first attempt', () => receiver.requests('/pendura').length >= 2 || undefined);
    const latencias: number[] = [];
    for (let index = 0; index < 10; index += 1) {
      const evento = atendimentoMensagem(rapida.idLoja);
      const sent = Date.now();
      await kafka.publish(TOPICS.atendimento, [evento]);
      const request = await eventually('the other store’s event', () => receiver.requests('/rapida').find((r) => r.headers['webhook-id'] === evento.id));
      latencias.push(request.at - sent);
    }
    expect(Math.max(...latencias)).toBeLessThan(1000);

    // The hanging endpoint's attempt fails after 10 s, and the store's next events go on.
    const entrega = await eventually('the timed-out attempt', async () => {
      const response = await api('GET', '/webhook/entregas?porPagina=100', { token: lenta.token });
      return response.body.entregas.find((e: { tentativas: unknown[] }) => e.tentativas.length > 0);
    }, 20_000, 250);
    expect(entrega.tentativas[0]).toMatchObject({ statusHttp: null, erro: 'sem resposta em 10 s' });
    // The full 10 s, give or take the few ms by which Node's timers run on the event loop's
    // cached clock (a run saw 9,996 ms).
    expect(entrega.tentativas[0].duracaoMs).toBeGreaterThanOrEqual(9_950);
    expect(entrega.tentativas[0].duracaoMs).toBeLessThan(11_000);
  });
});

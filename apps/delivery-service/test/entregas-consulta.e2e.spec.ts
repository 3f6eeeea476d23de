import { randomUUID } from 'node:crypto';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { NOTIFICATIONS, TOPICS } from '@trilha/contracts';
import {
  apiClient, atendimentoCriado, atendimentoMensagem, createStore, eventPublisher, eventually, expectInvalid, expectProblem, queueWith, registerWebhook, testStack, WebhookReceiver, type ReceivedRequest, type TestStore,
} from '@trilha/testing';

const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);
const kafka = eventPublisher(stack);
const receiver = WebhookReceiver.forTestFile(stack);

afterAll(() => kafka.close());

/** The headers a receiver got, but the connection's own (undici's keep-alive), which the sender does not choose per request. */
const cabecalhosRecebidos = (request: ReceivedRequest) => Object.fromEntries(Object.entries(request.headers).filter(([nome]) => nome !== 'connection'));

const entregas = async (loja: TestStore, query = '') => {
  const response = await api('GET', `/webhook/entregas${query}`, { token: loja.token });
  expect(response.status).toBe(200);
  return response.body;
};

/** The store's deliveries once `total` of them are delivered. */
const entregues = (loja: TestStore, total: number) =>
  eventually(`${total} deliveries delivered`, async () => {
    const log = await entregas(loja, '?porPagina=100');
    return log.entregas.length === total && log.entregas.every((entrega: { status: string }) => entrega.status === 'entregue') ? log.entregas : undefined;
  });

describe('GET /webhook/entregas/{idEntrega}: a delivery in detail', () => {
  it('shows each attempt’s URL and headers as the receiver got them, its answer’s first 2 KB, and the body as sent, signed', async () => {
    // A failure with a long body (past 2 KB, a character across the cut), then a 200.
    const longa = `${'x'.repeat(2046)}🚚 e o resto que não cabe`;
    receiver.on('/detalhe', (_request, index) => (index === 1 ? { status: 500, body: longa } : { status: 200, body: '{"recebido":true}' }));
    const loja = await createStore();
    const { segredo } = await registerWebhook(loja, receiver.url('/detalhe'));
    const evento = atendimentoMensagem(loja.idLoja, '<script>alert(1)</script> "onmouseover= \u202Eolá 🚚');
    await kafka.publish(TOPICS.atendimento, [evento]);
    const [{ idEntrega }] = await entregues(loja, 1);
    const [primeira, segunda] = receiver.notifications('/detalhe');

    const response = await api('GET', `/webhook/entregas/${idEntrega}`, { token: loja.token });
    expect(response.status).toBe(200);
    const detalhe = response.body;
    expect(detalhe).toMatchObject({ idEntrega, idEvento: evento.id, evento: 'atendimento.mensagem', status: 'entregue', ocorridoEm: evento.occurredAt, proximaTentativa: null });
    expect(detalhe.tentativas).toEqual([
      { numero: 1, dataHora: expect.stringMatching(/Z$/), url: receiver.url('/detalhe'), cabecalhos: cabecalhosRecebidos(primeira), statusHttp: 500, duracaoMs: expect.any(Number), erro: 'status 500, esperado 200', resposta: 'x'.repeat(2046) },
      { numero: 2, dataHora: expect.stringMatching(/Z$/), url: receiver.url('/detalhe'), cabecalhos: cabecalhosRecebidos(segunda), statusHttp: 200, duracaoMs: expect.any(Number), erro: null, resposta: '{"recebido":true}' },
    ]);
    expect(detalhe.requisicao).toEqual({ url: receiver.url('/detalhe'), cabecalhos: cabecalhosRecebidos(segunda), corpo: segunda.body });
    expect(JSON.parse(detalhe.requisicao.corpo)).toEqual({ evento: 'atendimento.mensagem', data: evento.data });
    // What the detail shows verifies as the receiver's copy does: the same bytes, each attempt's signature.
    for (const { cabecalhos } of detalhe.tentativas) {
      expect(new StandardWebhook(segredo).verify(detalhe.requisicao.corpo, cabecalhos)).toEqual({ evento: 'atendimento.mensagem', data: evento.data });
    }
  });

  it('says when a pending delivery’s next attempt is due', async () => {
    receiver.on('/proxima', (_request, index) => (index === 1 ? { status: 503, headers: { 'retry-after': '2' } } : { status: 200 }));
    const loja = await createStore();
    await registerWebhook(loja, receiver.url('/proxima'));
    await kafka.publish(TOPICS.atendimento, [atendimentoMensagem(loja.idLoja)]);
    const pendente = await eventually('the first attempt recorded', async () => {
      const [entrega] = (await entregas(loja)).entregas;
      return entrega?.tentativas.length === 1 ? entrega : undefined;
    });
    expect(pendente.status).toBe('pendente');
    const fimDaTentativa = Date.parse(pendente.tentativas[0].dataHora) + pendente.tentativas[0].duracaoMs;
    // Retry-After: 2 from the end of the failed attempt (the clock's millisecond rounding aside).
    expect(Date.parse(pendente.proximaTentativa) - fimDaTentativa).toBeGreaterThanOrEqual(1990);
    expect(Date.parse(pendente.proximaTentativa) - fimDaTentativa).toBeLessThanOrEqual(2010);
    const detalhe = (await api('GET', `/webhook/entregas/${pendente.idEntrega}`, { token: loja.token })).body;
    expect(detalhe.proximaTentativa).toBe(pendente.proximaTentativa);
    const [entregue] = await entregues(loja, 1);
    expect(entregue).toMatchObject({ tentativas: [{ statusHttp: 503 }, { statusHttp: 200 }], proximaTentativa: null });
  });

  it('is a 404 to any other store, both ways, and for an id that names nothing', async () => {
    const [a, b] = await Promise.all([createStore(), createStore()]);
    await Promise.all([registerWebhook(a, receiver.url('/isolamento-a')), registerWebhook(b, receiver.url('/isolamento-b'))]);
    await kafka.publish(TOPICS.atendimento, [atendimentoMensagem(a.idLoja), atendimentoMensagem(b.idLoja)]);
    const [[daA], [daB]] = await Promise.all([entregues(a, 1), entregues(b, 1)]);
    expect((await api('GET', `/webhook/entregas/${daA.idEntrega}`, { token: a.token })).status).toBe(200);
    expectProblem(await api('GET', `/webhook/entregas/${daA.idEntrega}`, { token: b.token }), 404);
    expectProblem(await api('GET', `/webhook/entregas/${daB.idEntrega}`, { token: a.token }), 404);
    expectProblem(await api('GET', `/webhook/entregas/${randomUUID()}`, { token: a.token }), 404);
    expectProblem(await api('GET', '/webhook/entregas/nao-e-um-id', { token: a.token }), 404);
  });
});

describe('GET /webhook/entregas: filters and cursor', () => {
  it('pages newest first by cursor with the filters combined, and refuses a cursor it did not give or one beside pagina', async () => {
    receiver.on('/filtros', () => ({ status: 200 }));
    const loja = await createStore();
    await registerWebhook(loja, receiver.url('/filtros'));
    // Seven events a minute apart, an hour ago: four messages and three conversations opened, alternating.
    const inicio = Date.now() - 3_600_000;
    const eventos = Array.from({ length: 7 }, (_, i) => ({
      ...(i % 2 === 0 ? atendimentoMensagem(loja.idLoja, `mensagem ${i}`) : atendimentoCriado(loja.idLoja)),
      occurredAt: new Date(inicio + i * 60_000).toISOString(),
    }));
    await kafka.publish(TOPICS.atendimento, eventos);
    const todas = await entregues(loja, 7);
    expect(todas.map((entrega: { idEvento: string }) => entrega.idEvento)).toEqual(eventos.map((evento) => evento.id).reverse());
    expect(todas.map((entrega: { ocorridoEm: string }) => entrega.ocorridoEm)).toEqual(eventos.map((evento) => evento.occurredAt).reverse());

    // Three pages of three by cursor: the same deliveries as the whole log, in its order.
    const paginas = [];
    let cursor: string | null = null;
    do {
      const pagina: { pagina: number; total: number; totalPaginas: number; entregas: { idEntrega: string }[]; proximoCursor: string | null } = await entregas(loja, `?porPagina=3${cursor ? `&cursor=${cursor}` : ''}`);
      paginas.push(pagina);
      cursor = pagina.proximoCursor;
    } while (cursor !== null);
    expect(paginas.map((pagina) => [pagina.pagina, pagina.total, pagina.totalPaginas, pagina.entregas.length])).toEqual([[1, 7, 3, 3], [2, 7, 3, 3], [3, 7, 3, 1]]);
    expect(paginas.flatMap((pagina) => pagina.entregas)).toEqual(todas);
    // pagina keeps working, and gives the cursor of the page after it.
    const segunda = await entregas(loja, '?porPagina=3&pagina=2');
    expect(segunda.entregas).toEqual(paginas[1].entregas);
    expect(segunda.proximoCursor).toBe(paginas[1].proximoCursor);

    const ids = (lista: { idEvento: string }[]) => lista.map((entrega) => entrega.idEvento);
    const mensagens = eventos.filter((evento) => evento.type === 'atendimento.mensagem').reverse();
    expect(ids((await entregas(loja, '?evento=atendimento.mensagem')).entregas)).toEqual(ids(mensagens.map((evento) => ({ idEvento: evento.id }))));
    // desde and ate hold the instants they name; an offset other than Z reads the same instant.
    const desde = new Date(inicio + 2 * 60_000).toISOString();
    const ate = new Date(inicio + 5 * 60_000).toISOString().replace('Z', '+00:00');
    const janela = await entregas(loja, `?desde=${encodeURIComponent(desde)}&ate=${encodeURIComponent(ate)}`);
    expect(ids(janela.entregas)).toEqual([eventos[5].id, eventos[4].id, eventos[3].id, eventos[2].id]);
    expect(janela.total).toBe(4);
    // Every filter at once, page by page.
    const filtros = `evento=atendimento.mensagem&status=entregue&desde=${encodeURIComponent(desde)}&porPagina=1`;
    const primeira = await entregas(loja, `?${filtros}`);
    expect([ids(primeira.entregas), primeira.total]).toEqual([[eventos[6].id], 3]);
    const seguinte = await entregas(loja, `?${filtros}&cursor=${primeira.proximoCursor}`);
    expect([ids(seguinte.entregas), seguinte.pagina]).toEqual([[eventos[4].id], 2]);
    const ultima = await entregas(loja, `?${filtros}&cursor=${seguinte.proximoCursor}`);
    expect([ids(ultima.entregas), ultima.proximoCursor]).toEqual([[eventos[2].id], null]);
    expect((await entregas(loja, '?status=pendente')).entregas).toEqual([]);

    expectInvalid(await api('GET', '/webhook/entregas?cursor=nao-e-um-cursor', { token: loja.token }), 'cursor');
    // Well-formed base64url whose text is no cursor (a character appended to a real one may make
    // another real one: the next page's number grows a digit).
    expectInvalid(await api('GET', `/webhook/entregas?cursor=${Buffer.from('12:0:1').toString('base64url')}`, { token: loja.token }), 'cursor');
    expectInvalid(await api('GET', `/webhook/entregas?pagina=2&cursor=${paginas[0].proximoCursor}`, { token: loja.token }), 'cursor');
    expectInvalid(await api('GET', '/webhook/entregas?evento=webhook.teste', { token: loja.token }), 'evento');
    expectInvalid(await api('GET', '/webhook/entregas?desde=ontem', { token: loja.token }), 'desde');
  });
});

describe('POST /webhook/testar', () => {
  it('sends a signed webhook.teste to the URL now and answers what the receiver answered, its failure included; it records no delivery', async () => {
    let resposta: { status: number; body: string } = { status: 200, body: 'recebido' };
    receiver.on('/teste', () => resposta);
    const loja = await createStore();
    expectProblem(await api('POST', '/webhook/testar', { token: loja.token }), 404);
    const { segredo } = await registerWebhook(loja, receiver.url('/teste'));

    const antes = Date.now();
    const ok = await api('POST', '/webhook/testar', { token: loja.token });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ evento: 'webhook.teste', statusHttp: 200, duracaoMs: expect.any(Number), erro: null, resposta: 'recebido' });
    const [recebido] = receiver.notifications('/teste');
    const corpo = new StandardWebhook(segredo).verify(recebido.body, recebido.headers as Record<string, string>) as { evento: string; data: { idLoja: number; dataHora: string } };
    expect(corpo).toEqual({ evento: 'webhook.teste', data: { idLoja: loja.idLoja, dataHora: expect.stringMatching(/Z$/) } });
    expect(Date.parse(corpo.data.dataHora)).toBeGreaterThanOrEqual(antes - 1000);

    resposta = { status: 503, body: '{"erro":"em manutenção"}' };
    const falha = await api('POST', '/webhook/testar', { token: loja.token });
    expect(falha.status).toBe(200);
    expect(falha.body).toEqual({ evento: 'webhook.teste', statusHttp: 503, duracaoMs: expect.any(Number), erro: 'status 503, esperado 200', resposta: '{"erro":"em manutenção"}' });
    expect(receiver.notifications('/teste')).toHaveLength(2);
    expect((await entregas(loja)).total).toBe(0);
  });
});

describe('POST /fila/remover', () => {
  it('removes many of the store’s pending items at once and names the codes it found nothing for: unknown, removed, or another store’s', async () => {
    const [loja, outra] = await Promise.all([createStore(), createStore()]);
    await kafka.publish(TOPICS.atendimento, [atendimentoMensagem(loja.idLoja, 'um'), atendimentoMensagem(loja.idLoja, 'dois'), atendimentoMensagem(loja.idLoja, 'três'), atendimentoMensagem(outra.idLoja, 'da outra')]);
    const [fila, filaDaOutra] = await Promise.all([queueWith(loja, 3), queueWith(outra, 1)]);
    const [um, dois, tres] = fila.eventos.map((item) => item.idDocumento);
    const daOutra = filaDaOutra.eventos[0].idDocumento;
    const desconhecido = randomUUID();

    const response = await api('POST', '/fila/remover', { token: loja.token, body: { codigos: [dois, daOutra, um.toUpperCase(), desconhecido, dois] } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ removidos: [dois, um], naoEncontrados: [daOutra, desconhecido] });
    expect((await api('GET', '/fila/lista', { token: loja.token })).body.eventos.map((item: { idDocumento: string }) => item.idDocumento)).toEqual([tres]);
    expect((await api('GET', '/fila/lista', { token: outra.token })).body.total).toBe(1);
    expect((await api('POST', '/fila/remover', { token: loja.token, body: { codigos: [um] } })).body).toEqual({ removidos: [], naoEncontrados: [um] });

    expectInvalid(await api('POST', '/fila/remover', { token: loja.token, body: { codigos: [] } }), 'codigos');
    expectInvalid(await api('POST', '/fila/remover', { token: loja.token, body: { codigos: ['nao-e-um-uuid'] } }), 'codigos');
    expectInvalid(await api('POST', '/fila/remover', { token: loja.token, body: { codigos: Array.from({ length: 501 }, () => randomUUID()) } }), 'codigos');
  });
});

describe('the notification catalog', () => {
  it('gives each notification’s example as its request body example in the OpenAPI document’s webhooks', async () => {
    const { webhooks } = (await api('GET', '/openapi.json')).body;
    for (const notificacao of NOTIFICATIONS) {
      expect(webhooks[notificacao.evento].post.requestBody.content['application/json'].example).toEqual({ evento: notificacao.evento, data: notificacao.exemplo });
    }
  });
});

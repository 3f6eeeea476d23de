import { Webhook as StandardWebhook } from 'standardwebhooks';
import { TOPICS } from '@trilha/contracts';
import {
  apiClient, atendimentoMensagem, createStore, deliveryLog, eventPublisher, eventually, expectInvalid, expectProblem, isVerification, queueWith, registerWebhook, testStack, WebhookReceiver, type DeliveryAttempt, type ReceivedRequest,
} from '@trilha/testing';

const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);
const kafka = eventPublisher(stack);
/** The test stack's compressed settings (tools/test.mjs). */
const { WEBHOOK_SECRET_OVERLAP, WEBHOOK_DISABLE_AFTER } = stack.env['delivery-service'];
const segundos = (texto: string) => Number(/^(\d+)s$/.exec(texto)![1]) * 1000;
const receiver = WebhookReceiver.forTestFile(stack);

afterAll(() => kafka.close());

const ids = (requests: ReceivedRequest[]) => requests.map((request) => request.headers['webhook-id']);
const headers = (request: ReceivedRequest) => request.headers as Record<string, string>;

describe('410 Gone (Standard Webhooks): deactivation, the queue, POST /webhook/ativar', () => {
  it('makes one attempt only, deactivates the webhook with its reason, queues that event and the later ones, and ativar restores pushing', async () => {
    // 200 to the registration's verification; then 410 to everything until `gone` is false.
    let registrado = false;
    let gone = true;
    receiver.on('/gone', (request) => ((isVerification(request) && !registrado) || !gone ? { status: 200 } : { status: 410 }));
    const loja = await createStore();
    await registerWebhook(loja, receiver.url('/gone'));
    registrado = true;
    const primeiro = atendimentoMensagem(loja.idLoja, 'primeiro');
    await kafka.publish(TOPICS.atendimento, [primeiro]);

    const fila = await queueWith(loja, 2);
    expect(fila.eventos.map((item) => [item.evento, item.entregaFalhou])).toEqual([['atendimento.mensagem', true], ['webhook.desativado', false]]);
    expect(fila.eventos[0].data).toEqual(primeiro.data);
    expect(fila.eventos[1].data).toEqual({ idLoja: loja.idLoja, url: receiver.url('/gone'), motivo: expect.stringMatching(/410 Gone/), dataDesativacao: expect.stringMatching(/Z$/) });
    const webhook = (await api('GET', '/webhook', { token: loja.token })).body;
    expect(webhook.saude).toMatchObject({ ativo: false, motivoDesativacao: fila.eventos[1].data.motivo, dataDesativacao: fila.eventos[1].data.dataDesativacao, falhasSeguidas: 1, ultimoErro: 'status 410, esperado 200', taxaSucesso24h: 0 });

    // Later events go straight to the queue; nothing more is sent.
    const depois = atendimentoMensagem(loja.idLoja, 'depois');
    await kafka.publish(TOPICS.atendimento, [depois]);
    expect((await queueWith(loja, 3)).eventos[2]).toMatchObject({ evento: 'atendimento.mensagem', data: depois.data, entregaFalhou: true });
    expect(ids(receiver.notifications('/gone'))).toEqual([primeiro.id]);
    const [entrega] = (await deliveryLog(loja, 100)).filter((e) => e.idEvento === primeiro.id);
    expect(entrega).toMatchObject({ status: 'falhou', tentativas: [{ numero: 1, statusHttp: 410 }] });
    expectProblem(await api('POST', `/webhook/entregas/${entrega.idEntrega}/reenviar`, { token: loja.token }), 409);
    expectProblem(await api('POST', '/webhook/entregas/recuperar', { token: loja.token, body: { desde: new Date(Date.now() - 60_000).toISOString() } }), 409);

    // Reactivation verifies the URL as registration does: a 410 there is a 400, and it stays off.
    const recusada = await api('POST', '/webhook/ativar', { token: loja.token });
    expectInvalid(recusada, 'url');
    expect(recusada.body.detail).toMatch(/status 410/);
    expect((await api('GET', '/webhook', { token: loja.token })).body.saude.ativo).toBe(false);

    gone = false;
    const ativado = await api('POST', '/webhook/ativar', { token: loja.token });
    expect(ativado.status).toBe(200);
    expect(ativado.body.saude).toMatchObject({ ativo: true, motivoDesativacao: null, dataDesativacao: null, falhasSeguidas: 0 });
    const novo = atendimentoMensagem(loja.idLoja, 'de volta');
    await kafka.publish(TOPICS.atendimento, [novo]);
    await eventually('the event after reactivation', () => receiver.confirmations('/gone').get(novo.id));
    expect((await api('GET', '/fila/lista', { token: loja.token })).body.total).toBe(3);
  });

  it('is active again when the store registers a webhook anew after a 410, and pushes to it', async () => {
    receiver.on('/gone-antigo', (request) => (isVerification(request) ? { status: 200 } : { status: 410 }));
    receiver.on('/novo-destino', () => ({ status: 200 }));
    const loja = await createStore();
    await registerWebhook(loja, receiver.url('/gone-antigo'));
    await kafka.publish(TOPICS.atendimento, [atendimentoMensagem(loja.idLoja, 'antes')]);
    await queueWith(loja, 2);
    expect((await api('GET', '/webhook', { token: loja.token })).body.saude.ativo).toBe(false);

    await registerWebhook(loja, receiver.url('/novo-destino'));
    expect((await api('GET', '/webhook', { token: loja.token })).body).toMatchObject({ url: receiver.url('/novo-destino'), saude: { ativo: true, motivoDesativacao: null } });
    const depois = atendimentoMensagem(loja.idLoja, 'depois do novo cadastro');
    await kafka.publish(TOPICS.atendimento, [depois]);
    await eventually('the event at the newly registered URL', () => receiver.confirmations('/novo-destino').get(depois.id));
    expect(ids(receiver.notifications('/gone-antigo'))).toHaveLength(1);
  });

  it('refuses at registration a URL that answers 410 to the verification; ativar without a webhook is a 404', async () => {
    receiver.on('/gone-na-verificacao', () => ({ status: 410 }));
    const loja = await createStore();
    const response = await api('POST', '/webhook/novo', { token: loja.token, body: { url: receiver.url('/gone-na-verificacao') } });
    expectInvalid(response, 'url');
    expect(response.body.detail).toMatch(/status 410/);
    expectProblem(await api('POST', '/webhook/ativar', { token: loja.token }), 404);
  });
});

describe('URL verifications at once per store', () => {
  it('runs two of a store’s verifications at once and answers a third 429 with Retry-After, naming the limit; another store is verified meanwhile', async () => {
    receiver.on('/verificacao-lenta', () => ({ status: 200, delayMs: 3000 }));
    const [loja, outra] = await Promise.all([createStore(), createStore()]);
    const registrar = () => api('POST', '/webhook/novo', { token: loja.token, body: { url: receiver.url('/verificacao-lenta') } });
    const respostas = Promise.all([registrar(), registrar(), registrar()]);

    await eventually('two verifications waiting for their answer', () => receiver.requests('/verificacao-lenta').length === 2 || undefined);
    const inicio = Date.now();
    await registerWebhook(outra, receiver.url('/verificacao-da-outra'));
    expect(Date.now() - inicio).toBeLessThan(1000);

    const recebidas = await respostas;
    expect(recebidas.map((response) => response.status).sort()).toEqual([201, 201, 429]);
    const recusada = recebidas.find((response) => response.status === 429)!;
    expectProblem(recusada, 429);
    expect(recusada.headers['retry-after']).toBe('10');
    expect(recusada.body.detail).toMatch(/2 chamadas simultâneas à URL do webhook/);
    expect(receiver.requests('/verificacao-lenta')).toHaveLength(2);
  });
});

describe('automatic deactivation after WEBHOOK_DISABLE_AFTER of failures', () => {
  it('deactivates a webhook whose every attempt failed for the period, queueing what was pending', async () => {
    receiver.on('/fora-do-ar', (request) => (isVerification(request) ? { status: 200 } : { status: 500 }));
    const loja = await createStore();
    await registerWebhook(loja, receiver.url('/fora-do-ar'));
    const primeiro = atendimentoMensagem(loja.idLoja, 'primeiro');
    await kafka.publish(TOPICS.atendimento, [primeiro]);
    await queueWith(loja, 1);
    const [{ tentativas }] = await deliveryLog(loja, 100);
    expect(tentativas).toHaveLength(6);
    expect((await api('GET', '/webhook', { token: loja.token })).body.saude).toMatchObject({ ativo: true, falhasSeguidas: 6 });

    // Once the period since the first failure has passed, the next failed attempt deactivates it.
    const fim = Date.parse(tentativas[0].dataHora) + segundos(WEBHOOK_DISABLE_AFTER);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, fim - Date.now())));
    const ultimo = atendimentoMensagem(loja.idLoja, 'último');
    await kafka.publish(TOPICS.atendimento, [ultimo]);
    const fila = await queueWith(loja, 3);
    expect(fila.eventos.map((item) => [item.evento, item.entregaFalhou])).toEqual([['atendimento.mensagem', true], ['webhook.desativado', false], ['atendimento.mensagem', true]]);
    expect(fila.eventos[2].data).toEqual(ultimo.data);
    expect(fila.eventos[1].data.motivo).toMatch(/^Todas as tentativas falharam desde .* \(7 seguidas\)\.$/);
    expect((await api('GET', '/webhook', { token: loja.token })).body.saude).toMatchObject({ ativo: false, falhasSeguidas: 7, motivoDesativacao: fila.eventos[1].data.motivo });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.notifications('/fora-do-ar').filter((request) => request.headers['webhook-id'] === ultimo.id)).toHaveLength(1);
  }, 90_000);
});

describe('POST /webhook/segredo/rotacionar', () => {
  it('signs with both secrets during the overlap (new first), only the two newest after a second rotation, and only the new one after it', async () => {
    const loja = await createStore();
    expectProblem(await api('POST', '/webhook/segredo/rotacionar', { token: loja.token }), 404);
    const { segredo: s1 } = await registerWebhook(loja, receiver.url('/rotacao'));
    const entregue = async () => {
      const evento = atendimentoMensagem(loja.idLoja);
      await kafka.publish(TOPICS.atendimento, [evento]);
      return eventually('the delivery', () => receiver.notifications('/rotacao').find((request) => request.headers['webhook-id'] === evento.id));
    };
    const verifica = (segredo: string, request: ReceivedRequest) => {
      try {
        new StandardWebhook(segredo).verify(request.body, headers(request));
        return true;
      } catch {
        return false;
      }
    };

    const rotacao = await api('POST', '/webhook/segredo/rotacionar', { token: loja.token });
    expect(rotacao.status).toBe(200);
    const s2: string = rotacao.body.segredo;
    expect(s2).toMatch(/^whsec_/);
    expect(rotacao.body).toEqual({ segredo: s2, criadoEm: expect.stringMatching(/Z$/), antigoValidoAte: expect.stringMatching(/Z$/) });
    expect(Date.parse(rotacao.body.antigoValidoAte) - Date.now()).toBeGreaterThan(segundos(WEBHOOK_SECRET_OVERLAP) - 2000);
    const durante = await entregue();
    const assinada = (segredo: string, request: ReceivedRequest) =>
      new StandardWebhook(segredo).sign(String(request.headers['webhook-id']), new Date(Number(request.headers['webhook-timestamp']) * 1000), request.body);
    expect(String(durante.headers['webhook-signature']).split(' ')).toEqual([assinada(s2, durante), assinada(s1, durante)]);
    expect([verifica(s2, durante), verifica(s1, durante)]).toEqual([true, true]);

    const segunda = await api('POST', '/webhook/segredo/rotacionar', { token: loja.token });
    const s3: string = segunda.body.segredo;
    const depoisDaSegunda = await entregue();
    expect([verifica(s3, depoisDaSegunda), verifica(s2, depoisDaSegunda), verifica(s1, depoisDaSegunda)]).toEqual([true, true, false]);

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(segunda.body.antigoValidoAte) - Date.now() + 100)));
    const depois = await entregue();
    expect(String(depois.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect([verifica(s3, depois), verifica(s2, depois)]).toEqual([true, false]);
  });
});

describe('POST /webhook/entregas/recuperar and the endpoint health in GET /webhook', () => {
  it('after an outage, one call delivers every failed event once, in order; they leave the queue; health matches the attempts', async () => {
    let foraDoAr = true;
    receiver.on('/recuperacao', (request) => (isVerification(request) || !foraDoAr ? { status: 200 } : { status: 500 }));
    const loja = await createStore();
    const inicio = new Date();
    await registerWebhook(loja, receiver.url('/recuperacao'));
    const eventos = [1, 2, 3].map((n) => atendimentoMensagem(loja.idLoja, `mensagem ${n}`));
    await kafka.publish(TOPICS.atendimento, eventos);
    // Queued as each one's last retry failed, which need not be the order of the events.
    const naFila = (await queueWith(loja, 3)).eventos.map((item) => item.data.mensagem);
    expect(naFila.sort()).toEqual(['mensagem 1', 'mensagem 2', 'mensagem 3']);
    expect((await api('GET', '/webhook', { token: loja.token })).body.saude).toMatchObject({
      ultimaEntrega: null, ultimaFalha: expect.stringMatching(/Z$/), ultimoErro: 'status 500, esperado 200', falhasSeguidas: 18, taxaSucesso24h: 0, ativo: true,
    });

    foraDoAr = false;
    const recuperacao = await api('POST', '/webhook/entregas/recuperar', { token: loja.token, body: { desde: inicio.toISOString() } });
    expect(recuperacao.status).toBe(202);
    expect(recuperacao.body).toEqual({ quantidade: 3 });
    await eventually('every failed event delivered', () => eventos.every((evento) => receiver.confirmations('/recuperacao').has(evento.id)) || undefined);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const entregues = receiver.notifications('/recuperacao').filter((request) => request.answered === 200);
    expect(ids(entregues)).toEqual(eventos.map((evento) => evento.id));
    await queueWith(loja, 0);

    const log = await deliveryLog(loja, 100);
    expect(log.map((entrega) => entrega.status)).toEqual(['entregue', 'entregue', 'entregue']);
    const feitas = log.flatMap((entrega) => entrega.tentativas);
    const sucessos = feitas.filter((tentativa) => tentativa.statusHttp === 200);
    expect([feitas.length, sucessos.length]).toEqual([21, 3]);
    const { saude } = (await api('GET', '/webhook', { token: loja.token })).body;
    const ultima = (lista: DeliveryAttempt[]) => lista.map((tentativa) => tentativa.dataHora).sort().at(-1);
    expect(saude).toEqual({
      ultimaEntrega: ultima(sucessos),
      ultimaFalha: ultima(feitas.filter((tentativa) => tentativa.statusHttp !== 200)),
      ultimoErro: 'status 500, esperado 200',
      falhasSeguidas: 0,
      taxaSucesso24h: Math.round((3 / 21) * 10_000) / 10_000,
      ativo: true,
      motivoDesativacao: null,
      dataDesativacao: null,
    });
    // Nothing failed since: a second call recovers nothing.
    expect((await api('POST', '/webhook/entregas/recuperar', { token: loja.token, body: { desde: inicio.toISOString() } })).body).toEqual({ quantidade: 0 });
  });

  it('refuses a desde in the future or more than 30 days back, naming it, and answers 409 without a webhook', async () => {
    const loja = await createStore();
    const dia = 86_400_000;
    const semFuso = new Date(Date.now() - dia).toISOString().slice(0, 19);
    for (const desde of [new Date(Date.now() + 60_000).toISOString(), new Date(Date.now() - 31 * dia).toISOString(), 'ontem', '', 42, semFuso, `${semFuso}+14:30`, `${semFuso}+23:00`]) {
      const resposta = await api('POST', '/webhook/entregas/recuperar', { token: loja.token, body: { desde } });
      expectInvalid(resposta, 'desde');
      expect(resposta.body.erros[0].mensagem).toMatch(/^desde (deve ser data e hora ISO 8601 com fuso|não pode estar no futuro|pode ser no máximo 30 dias atrás)/);
    }
    expectInvalid(await api('POST', '/webhook/entregas/recuperar', { token: loja.token, body: {} }), 'desde');
    expectProblem(await api('POST', '/webhook/entregas/recuperar', { token: loja.token, body: { desde: new Date(Date.now() - dia).toISOString() } }), 409);
  });
});

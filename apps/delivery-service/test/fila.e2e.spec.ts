import { TOPICS } from '@trilha/contracts';
import {
  apiClient, atendimentoMensagem, createStore, eventPublisher, eventually, expectInvalid, expectProblem, isVerification, queueWith, registerWebhook, testStack, WebhookReceiver,
} from '@trilha/testing';

const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);
const admin = { 'x-admin-key': stack.adminApiKey };
const kafka = eventPublisher(stack);

afterAll(() => kafka.close());

/** The conversation every message of this file belongs to. */
const conversa = { idAtendimento: 'at-fila', canal: 'chat' } as const;

describe('queue (docs/API.md section 8)', () => {
  it('keeps every event of a store without a webhook, oldest first; listing removes nothing', async () => {
    const loja = await createStore();
    const eventos = [atendimentoMensagem(loja.idLoja, 'um', conversa), atendimentoMensagem(loja.idLoja, 'dois', conversa), atendimentoMensagem(loja.idLoja, 'três', conversa)];
    await kafka.publish(TOPICS.atendimento, eventos);
    const fila = await queueWith(loja, 3);
    expect(fila.eventos).toEqual(eventos.map((evento) => ({
      idDocumento: expect.stringMatching(/^[0-9a-f-]{36}$/),
      evento: 'atendimento.mensagem',
      data: evento.data,
      dataCriacao: expect.stringMatching(/Z$/),
      entregaFalhou: false,
    })));
    const removido = await api('POST', `/admin/lojas/${loja.idLoja}/aplicativo/remover`, { headers: admin });
    const comRemocao = await queueWith(loja, 4);
    expect(comRemocao.eventos[3]).toMatchObject({ evento: 'aplicativo.removido', data: removido.body });

    const dois = await api('GET', '/fila/lista?limite=2', { token: loja.token });
    expect(dois.status).toBe(200);
    expect(dois.body.total).toBe(4);
    expect(dois.body.eventos).toEqual(fila.eventos.slice(0, 2));
    expect((await api('GET', '/fila/lista', { token: loja.token })).body.eventos).toHaveLength(4);
  });

  it('removes an item with DELETE /fila/delete?codigo=, once, and only the store’s own', async () => {
    const loja = await createStore();
    await kafka.publish(TOPICS.atendimento, [atendimentoMensagem(loja.idLoja, 'a', conversa), atendimentoMensagem(loja.idLoja, 'b', conversa)]);
    const [primeiro, segundo] = (await queueWith(loja, 2)).eventos;
    const outra = await createStore();
    expectProblem(await api('DELETE', `/fila/delete?codigo=${primeiro.idDocumento}`, { token: outra.token }), 404);

    const removido = await api('DELETE', `/fila/delete?codigo=${primeiro.idDocumento}`, { token: loja.token });
    expect(removido.status).toBe(200);
    expect(removido.body).toEqual({ idDocumento: primeiro.idDocumento, removido: true });
    expectProblem(await api('DELETE', `/fila/delete?codigo=${primeiro.idDocumento}`, { token: loja.token }), 404);
    expect((await api('GET', '/fila/lista', { token: loja.token })).body).toEqual({ total: 1, eventos: [segundo] });

    expectProblem(await api('DELETE', '/fila/delete?codigo=00000000-0000-4000-8000-000000000000', { token: loja.token }), 404);
    expectProblem(await api('DELETE', '/fila/delete?codigo=nao-existe', { token: loja.token }), 404);
    expectProblem(await api('DELETE', '/fila/delete', { token: loja.token }), 400);
    expectProblem(await api('DELETE', '/fila/delete?codigo=', { token: loja.token }), 400);
  });

  it('removes items asked at once each once, the same item for its first request only, never another store’s', async () => {
    const [loja, outra] = await Promise.all([createStore(), createStore()]);
    await kafka.publish(TOPICS.atendimento, Array.from({ length: 20 }, (_, n) => atendimentoMensagem(loja.idLoja, `m${n}`, conversa)));
    await kafka.publish(TOPICS.atendimento, [atendimentoMensagem(outra.idLoja, 'da outra', conversa)]);
    const itens = (await queueWith(loja, 20)).eventos.map((evento: { idDocumento: string }) => evento.idDocumento);
    const [daOutra] = (await queueWith(outra, 1)).eventos;

    const pedidos = [
      ...itens.map((codigo: string) => ({ codigo, token: loja.token })),
      ...Array.from({ length: 3 }, () => ({ codigo: itens[0], token: loja.token })),
      { codigo: itens[1].toUpperCase(), token: loja.token },
      { codigo: daOutra.idDocumento, token: loja.token },
    ];
    const respostas = await Promise.all(pedidos.map(({ codigo, token }) => api('DELETE', `/fila/delete?codigo=${codigo}`, { token })));
    const status = respostas.map((resposta) => resposta.status);
    // 20 items removed once each; the first item's three repeats and the second's upper-case repeat find them gone.
    expect(status.filter((code) => code === 200)).toHaveLength(20);
    expect(status.filter((code) => code === 404)).toHaveLength(5);
    expect(status.at(-1)).toBe(404);
    expect((await api('GET', '/fila/lista', { token: loja.token })).body).toEqual({ total: 0, eventos: [] });
    expect((await api('GET', '/fila/lista', { token: outra.token })).body).toEqual({ total: 1, eventos: [daOutra] });
  });

  it('answers 400 to a limite outside 1–500 and to unknown parameters', async () => {
    const loja = await createStore();
    for (const query of ['limite=0', 'limite=501', 'limite=abc', 'limite=2.5', 'outro=1']) {
      expectInvalid(await api('GET', `/fila/lista?${query}`, { token: loja.token }), query.split('=')[0]);
    }
    expect((await api('GET', '/fila/lista?limite=500', { token: loja.token })).body).toEqual({ total: 0, eventos: [] });
  });

  it('takes the pending deliveries of a removed webhook, with entregaFalhou when an attempt had failed', async () => {
    const receiver = await WebhookReceiver.start(stack);
    try {
      receiver.on('/falha', (request) => (isVerification(request) ? { status: 200 } : { status: 500 }));
      const loja = await createStore();
      await registerWebhook(loja, receiver.url('/falha'));
      const evento = atendimentoMensagem(loja.idLoja, 'falhou uma vez', conversa);
      await kafka.publish(TOPICS.atendimento, [evento]);
      await eventually('a failed attempt in the log', async () => (await api('GET', '/webhook/entregas', { token: loja.token })).body.entregas[0]?.tentativas.length >= 1 || undefined);
      expect((await api('DELETE', '/webhook', { token: loja.token })).status).toBe(204);
      const fila = await queueWith(loja, 1);
      expect(fila.eventos[0]).toMatchObject({ evento: 'atendimento.mensagem', data: evento.data, entregaFalhou: true });
    } finally {
      await receiver.close();
    }
  });
});

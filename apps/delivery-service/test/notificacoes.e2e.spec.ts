import { Webhook as StandardWebhook } from 'standardwebhooks';
import { apiClient, createStore, eventually, openConversation, queueWith, registerWebhook, testStack, WebhookReceiver } from '@trilha/testing';

// webhook.e2e and fila.e2e feed the delivery service made-up events straight on Kafka, and
// atendimentos.e2e stops at the topic; here one real conversation goes the whole way: the
// public API, the atendimento service, its outbox, Kafka, the delivery service, the store.
const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);
const receiver = WebhookReceiver.forTestFile(stack);

describe('a conversation opened through the API reaches the store (docs/API.md sections 5, 7 and 8)', () => {
  it('pushes atendimento.criado to the store’s webhook, signed and in the request’s trace, and logs the delivery', async () => {
    const loja = await createStore();
    const { segredo } = await registerWebhook(loja, receiver.url('/conversa-real'));
    const { criado: data, traceId } = await openConversation(loja);
    expect(data.idLoja).toBe(loja.idLoja);

    const [notificacao] = await eventually('the notification', () => {
      const recebidas = receiver.notifications('/conversa-real');
      return recebidas.length > 0 ? recebidas : undefined;
    });
    expect(notificacao.headers['content-type']).toBe('application/json');
    const body = new StandardWebhook(segredo).verify(notificacao.body, notificacao.headers as Record<string, string>);
    expect(body).toEqual({ evento: 'atendimento.criado', data });
    expect(String(notificacao.headers.traceparent).split('-')[1]).toBe(traceId);

    const entregas = await eventually('the delivery in the log', async () => {
      const response = await api('GET', '/webhook/entregas', { token: loja.token });
      return response.body.entregas?.[0]?.status === 'entregue' ? response.body : undefined;
    });
    expect(entregas).toMatchObject({ total: 1 });
    expect(entregas.entregas).toEqual([{
      idEntrega: expect.any(String),
      idEvento: notificacao.headers['webhook-id'],
      evento: 'atendimento.criado',
      status: 'entregue',
      ocorridoEm: expect.stringMatching(/Z$/),
      proximaTentativa: null,
      tentativas: [{ numero: 1, dataHora: expect.stringMatching(/Z$/), statusHttp: 200, duracaoMs: expect.any(Number), erro: null }],
    }]);
    expect(receiver.notifications('/conversa-real')).toHaveLength(1);
    expect((await api('GET', '/fila/lista', { token: loja.token })).body).toEqual({ total: 0, eventos: [] });
  });

  it('queues atendimento.criado for a store without a webhook, until the store deletes it', async () => {
    const loja = await createStore();
    const { criado: data } = await openConversation(loja);

    const fila = await queueWith(loja, 1);
    expect(fila.eventos).toEqual([{ idDocumento: expect.any(String), evento: 'atendimento.criado', data, dataCriacao: expect.stringMatching(/Z$/), entregaFalhou: false }]);
    const { idDocumento } = fila.eventos[0];
    const removido = await api('DELETE', `/fila/delete?codigo=${idDocumento}`, { token: loja.token });
    expect(removido.status).toBe(200);
    expect(removido.body).toEqual({ idDocumento, removido: true });
    expect((await api('GET', '/fila/lista', { token: loja.token })).body).toEqual({ total: 0, eventos: [] });
    expect((await api('GET', '/webhook/entregas', { token: loja.token })).body.total).toBe(0);
  });
});

import { randomBytes } from 'node:crypto';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { apiClient, createStore, eventually, queueWith, registerWebhook, testStack, WebhookReceiver } from '@trilha/testing';

// webhook.e2e and fila.e2e feed the delivery service made-up events straight on Kafka, and
// atendimentos.e2e stops at the topic; here one real conversation goes the whole way: the
// public API, the atendimento service, its outbox, Kafka, the delivery service, the store.
const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);
const cliente = { nome: 'Maria Silva', telefone: '+5511999990000', email: 'maria@example.com' };
const receiver = WebhookReceiver.forTestFile(stack);

/** Opens a conversation through the public API, in a trace of its own. */
async function abrirAtendimento(token: string) {
  const traceId = randomBytes(16).toString('hex');
  const response = await api('POST', '/atendimentos', {
    token,
    headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
    body: { canal: 'chat', tipo: 'duvida', dadosCliente: cliente },
  });
  expect(response.status).toBe(201);
  const { idAtendimento, idLoja, dataAbertura } = response.body;
  // Exactly these fields of atendimento.criado (docs/API.md section 7).
  const data = { idAtendimento, idLoja, canal: 'chat', tipo: 'duvida', status: 'aberto', dadosCliente: cliente, dataAbertura };
  return { data, traceId };
}

describe('a conversation opened through the API reaches the store (docs/API.md sections 5, 7 and 8)', () => {
  it('pushes atendimento.criado to the store’s webhook, signed and in the request’s trace, and logs the delivery', async () => {
    const loja = await createStore();
    const { segredo } = await registerWebhook(loja, receiver.url('/conversa-real'));
    const { data, traceId } = await abrirAtendimento(loja.token);
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
      tentativas: [{ numero: 1, dataHora: expect.stringMatching(/Z$/), statusHttp: 200, duracaoMs: expect.any(Number), erro: null }],
    }]);
    expect(receiver.notifications('/conversa-real')).toHaveLength(1);
    expect((await api('GET', '/fila/lista', { token: loja.token })).body).toEqual({ total: 0, eventos: [] });
  });

  it('queues atendimento.criado for a store without a webhook, until the store deletes it', async () => {
    const loja = await createStore();
    const { data } = await abrirAtendimento(loja.token);

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

import { TOPICS } from '@trilha/contracts';
import { apiClient, atendimentoCriado, createStore, deliveryLog, eventPublisher, eventually, isVerification, registerWebhook, testStack, WebhookReceiver } from '@trilha/testing';

const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);
const kafka = eventPublisher(stack);
const receiver = WebhookReceiver.forTestFile(stack);

afterAll(() => kafka.close());

/**
 * A store whose receiver holds its first notification open until `responder` is called with a
 * status; returns once that request has arrived (the attempt is in flight).
 */
async function tentativaRetida(path: string) {
  let responder!: (status: number) => void;
  const resposta = new Promise<number>((resolve) => (responder = resolve));
  receiver.on(path, async (request) => (isVerification(request) ? { status: 200 } : { status: await resposta }));
  const loja = await createStore();
  await registerWebhook(loja, receiver.url(path));
  const evento = atendimentoCriado(loja.idLoja, { idAtendimento: 'at-remocao', canal: 'chat' });
  await kafka.publish(TOPICS.atendimento, [evento]);
  await eventually('the attempt held open by the receiver', () => receiver.notifications(path).length === 1 || undefined);
  return { loja, evento, responder };
}

const fila = async (token: string) => (await api('GET', '/fila/lista', { token })).body;

describe('a webhook removed while an attempt is in flight (docs/API.md section 7)', () => {
  it('the attempt’s 200 delivers the event: it is not queued, and the deliveries log says delivered', async () => {
    const { loja, evento, responder } = await tentativaRetida('/remocao-em-voo-200');
    expect((await api('DELETE', '/webhook', { token: loja.token })).status).toBe(204);
    expect(await fila(loja.token)).toEqual({ total: 0, eventos: [] });
    responder(200);
    const [entrega] = await eventually('the delivery recorded as delivered', async () => {
      const lista = await deliveryLog(loja);
      return lista[0]?.status === 'entregue' ? lista : undefined;
    });
    expect(entrega).toMatchObject({ idEvento: evento.id, status: 'entregue', tentativas: [{ numero: 1, statusHttp: 200, erro: null }] });
    expect(await fila(loja.token)).toEqual({ total: 0, eventos: [] });
    expect(receiver.confirmations('/remocao-em-voo-200').get(evento.id)).toBe(1);
  });

  it('the attempt’s failure queues the event with no retry, and the deliveries log says failed', async () => {
    const { loja, evento, responder } = await tentativaRetida('/remocao-em-voo-500');
    expect((await api('DELETE', '/webhook', { token: loja.token })).status).toBe(204);
    responder(500);
    const queue = await eventually('the event in the queue', async () => {
      const body = await fila(loja.token);
      return body.total === 1 ? body : undefined;
    });
    expect(queue.eventos).toEqual([expect.objectContaining({ evento: 'atendimento.criado', data: evento.data, entregaFalhou: true })]);
    expect(await deliveryLog(loja)).toEqual([
      expect.objectContaining({ idEvento: evento.id, status: 'falhou', tentativas: [expect.objectContaining({ numero: 1, statusHttp: 500 })] }),
    ]);
    // The test stack's first retry would come 500 ms after the failure: none is made.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.notifications('/remocao-em-voo-500')).toHaveLength(1);
  });
});

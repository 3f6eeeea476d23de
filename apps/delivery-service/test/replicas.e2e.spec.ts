import { TOPICS } from '@trilha/contracts';
import { createKafka } from '@trilha/event-store';
import { apiClient, clientAddress, envelope, eventPublisher, eventually, startReplica, testStack, WebhookReceiver } from '@trilha/testing';

const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);
const admin = { 'x-admin-key': stack.adminApiKey };
const kafka = eventPublisher(createKafka({ brokers: [stack.infra.kafkaBrokers] }, 'trilha-tests'));

/** Webhook POSTs a replica made that its receiver confirmed, from its /metrics. */
async function confirmadas(opsPort: number): Promise<number> {
  const metrics = await (await fetch(`http://127.0.0.1:${opsPort}/metrics`)).text();
  return Number(/^trilha_webhook_attempts_total\{outcome="delivered"\} (\d+)/m.exec(metrics)?.[1] ?? 0);
}

afterAll(() => kafka.close());

describe('scaling (issue 5)', () => {
  it('two replicas share the deliveries, and no event is confirmed twice', async () => {
    const receiver = await WebhookReceiver.start(stack);
    const opsPort = stack.ports.ops['delivery-service'] + 30;
    const replica = await startReplica(stack, 'delivery-service', 'delivery-service-replica-2', {
      OPS_PORT: String(opsPort),
      INTERNAL_PORT: String(stack.ports.internal['delivery-service'] + 30),
    });
    try {
      const lojas = await Promise.all(Array.from({ length: 20 }, async (_, n) => {
        const created = await api('POST', '/admin/lojas', { headers: admin, body: { nome: `Loja Escala ${n}` } });
        const auth = await api('GET', `/autenticacao/${created.body.codigo}`, { headers: clientAddress() });
        const path = `/escala/${created.body.idLoja}`;
        receiver.on(path, () => ({ status: 200, delayMs: 20 }));
        expect((await api('POST', '/webhook/novo', { token: auth.body.token, body: { url: receiver.url(path) } })).status).toBe(201);
        return created.body.idLoja as number;
      }));
      // Counted after the registrations, whose verification calls the stack's replica made.
      const antes = await confirmadas(stack.ports.ops['delivery-service']);
      const eventos = lojas.flatMap((idLoja) => Array.from({ length: 10 }, () => envelope('atendimento.encerrado', idLoja, {
        idAtendimento: 'at-escala', idLoja, canal: 'email', status: 'encerrado', dataEncerramento: new Date().toISOString(), resumo: 'ok',
      })));
      await kafka.publish(TOPICS.atendimento, eventos);

      const porId = await eventually('every event confirmed', () => {
        const counts = new Map<string, number>();
        for (const request of receiver.received) {
          if (request.answered !== 200 || !request.path.startsWith('/escala/')) continue;
          const id = String(request.headers['webhook-id']);
          counts.set(id, (counts.get(id) ?? 0) + 1);
        }
        return eventos.every((evento) => counts.has(evento.id)) ? counts : undefined;
      }, 30_000, 100);
      // Verification calls carry their own ids; every event was confirmed exactly once.
      expect(eventos.map((evento) => porId.get(evento.id))).toEqual(eventos.map(() => 1));
      const daReplica = await confirmadas(opsPort);
      const daOutra = (await confirmadas(stack.ports.ops['delivery-service'])) - antes;
      expect(daReplica).toBeGreaterThan(0);
      expect(daOutra).toBeGreaterThan(0);
      expect(daReplica + daOutra).toBeGreaterThanOrEqual(eventos.length);
    } finally {
      await replica.stop();
      await receiver.close();
    }
  }, 90_000);
});

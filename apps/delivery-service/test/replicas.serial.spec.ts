import { TOPICS } from '@trilha/contracts';
import { createStore, envelope, eventPublisher, eventually, metricValue, registerWebhook, startReplica, testStack, WebhookReceiver } from '@trilha/testing';

const stack = testStack();
const kafka = eventPublisher(stack);

/** Webhook POSTs a replica made that its receiver confirmed, from its /metrics. */
const confirmadas = (opsPort: number) => metricValue(opsPort, 'trilha_webhook_attempts_total{outcome="delivered"}');

afterAll(() => kafka.close());

describe('scaling', () => {
  it('two replicas share the deliveries, and no event is confirmed twice', async () => {
    const receiver = await WebhookReceiver.start(stack);
    const opsPort = stack.ports.ops['delivery-service'] + 30;
    const replica = await startReplica(stack, 'delivery-service', 'delivery-service-replica-2', {
      OPS_PORT: String(opsPort),
      INTERNAL_PORT: String(stack.ports.internal['delivery-service'] + 30),
    });
    try {
      const lojas = await Promise.all(Array.from({ length: 20 }, async (_, n) => {
        const loja = await createStore(`Loja Escala ${n}`);
        const path = `/escala/${loja.idLoja}`;
        receiver.on(path, () => ({ status: 200, delayMs: 20 }));
        await registerWebhook(loja, receiver.url(path));
        return loja.idLoja;
      }));
      // Counted after the registrations, whose verification calls the stack's replica made.
      const antes = await confirmadas(stack.ports.ops['delivery-service']);
      const eventos = lojas.flatMap((idLoja) => Array.from({ length: 10 }, () => envelope('atendimento.encerrado', idLoja, {
        idAtendimento: 'at-escala', idLoja, canal: 'email', status: 'encerrado', dataEncerramento: new Date().toISOString(), resumo: 'ok',
      })));
      await kafka.publish(TOPICS.atendimento, eventos);

      const porId = await eventually('every event confirmed', () => {
        const counts = receiver.confirmations('/escala/');
        return eventos.every((evento) => counts.has(evento.id)) ? counts : undefined;
      }, 30_000, 100);
      // Every event was confirmed exactly once.
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

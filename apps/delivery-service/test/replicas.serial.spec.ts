import { TOPICS } from '@trilha/contracts';
import { createStore, deliveryLog, envelope, eventPublisher, eventually, metricValue, registerWebhook, startReplica, testStack, WebhookReceiver } from '@trilha/testing';

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
      // The replica serves before its consumer joins the group: until then the other one reads
      // every event, and on a fast machine delivers them all before the replica is in.
      await eventually('the replica in its consumer group', async () => (await metricValue(opsPort, 'trilha_kafka_consumer_running')) === 1 || undefined, 30_000, 100);
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

  it('a replica stopped with attempts in flight records them before it exits: none is made again', async () => {
    const receiver = await WebhookReceiver.start(stack);
    const opsPort = stack.ports.ops['delivery-service'] + 31;
    const replica = await startReplica(stack, 'delivery-service', 'delivery-service-replica-stopped', {
      OPS_PORT: String(opsPort),
      INTERNAL_PORT: String(stack.ports.internal['delivery-service'] + 31),
    });
    try {
      const lojas = await Promise.all(Array.from({ length: 10 }, async (_, n) => {
        const loja = await createStore(`Loja Parada ${n}`);
        const path = `/parada/${loja.idLoja}`;
        // Slow enough that the replica is still waiting on its receivers when it is told to stop.
        receiver.on(path, () => ({ status: 200, delayMs: 1500 }));
        await registerWebhook(loja, receiver.url(path));
        return loja;
      }));
      const eventos = lojas.flatMap(({ idLoja }) => Array.from({ length: 5 }, () => envelope('atendimento.encerrado', idLoja, {
        idAtendimento: 'at-parada', idLoja, canal: 'email', status: 'encerrado', dataEncerramento: new Date().toISOString(), resumo: 'ok',
      })));
      await kafka.publish(TOPICS.atendimento, eventos);
      await eventually('the replica waiting on its receivers', async () => (await metricValue(opsPort, 'trilha_webhook_attempts_in_flight')) > 0 || undefined, 30_000, 50);

      await replica.stop('SIGTERM');
      const confirmadasAoParar = [...receiver.confirmations('/parada/').keys()];
      expect(confirmadasAoParar.length).toBeGreaterThan(0);
      // Recorded as delivered at once: not left leased, to be made again when the lease ends.
      await eventually('every attempt the stopped replica made recorded', async () => {
        const registradas = new Map((await Promise.all(lojas.map((loja) => deliveryLog(loja, 100)))).flat().map((entrega) => [entrega.idEvento, entrega.status]));
        return confirmadasAoParar.every((idEvento) => registradas.get(idEvento) === 'entregue') || undefined;
      }, 5_000, 200);
      const porId = await eventually('every event confirmed', () => {
        const counts = receiver.confirmations('/parada/');
        return eventos.every((evento) => counts.has(evento.id)) ? counts : undefined;
      }, 30_000, 100);
      expect(eventos.map((evento) => porId.get(evento.id))).toEqual(eventos.map(() => 1));
    } finally {
      await replica.stop();
      await receiver.close();
    }
  }, 90_000);
});

import { Client } from 'pg';
import {
  apiClient, createStore, eventually, everyServiceReady, handledBy, metricValue, readiness, registerWebhook, startInfra, startReplica,
  stopInfra, testStack, WebhookReceiver, type Replica,
} from '@trilha/testing';

const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);
const admin = { 'x-admin-key': stack.adminApiKey };
const cliente = { nome: 'Maria Silva', telefone: '+5511999990000', email: 'maria@example.com' };

async function pendingInOutbox(schema: string): Promise<number> {
  const db = new Client({ connectionString: stack.infra.databaseUrl });
  await db.connect();
  try {
    return (await db.query(`SELECT count(*)::int AS count FROM ${schema}.outbox`)).rows[0].count as number;
  } finally {
    await db.end();
  }
}

/** The notifications' event types, in the order they reached the receiver. */
const eventos = (receiver: WebhookReceiver, path: string) => receiver.notifications(path).map((request) => (JSON.parse(request.body) as { evento: string }).evento);

describe('an outage of Kafka degrades delivery, never the API', () => {
  it('starts and serves without Kafka, keeps what is written in the outbox, and delivers it in order once Kafka is back', async () => {
    const receiver = await WebhookReceiver.start(stack);
    const port = stack.ports.gateway + 15;
    const gatewayOps = stack.ports.ops['api-gateway'] + 50;
    const atendimentoOps = stack.ports.ops['atendimento-service'] + 50;
    const atendimentoPort = stack.ports.internal['atendimento-service'] + 50;
    const [trackingOps, trackingPort] = [stack.ports.ops['tracking-service'] + 50, stack.ports.internal['tracking-service'] + 50];
    const [deliveryOps, deliveryPort] = [stack.ports.ops['delivery-service'] + 50, stack.ports.internal['delivery-service'] + 50];
    const replicas: Replica[] = [];
    const alsoStarted: Replica[] = [];
    try {
      const loja = await createStore('Loja sem Kafka');
      await registerWebhook(loja, receiver.url('/kafka-fora'));
      await handledBy(stack.dataDir, 'delivery-service', { type: 'loja.criada', idLoja: loja.idLoja });

      await stopInfra(stack, 'kafka');
      // Every service stays ready, its body and its metrics saying Kafka does not answer.
      for (const [service, servicePort] of Object.entries(stack.ports.ops)) {
        const degraded = await eventually(`${service} reporting Kafka down`, async () => {
          const answer = await readiness(servicePort);
          return answer?.status === 'degraded' ? answer : undefined;
        }, 20_000, 100);
        expect(degraded).toMatchObject({ httpStatus: 200, checks: { database: 'ok', kafka: expect.not.stringMatching(/^ok$/) } });
        expect(await metricValue(servicePort, 'trilha_kafka_connected')).toBe(0);
      }

      // A process of every service started during the outage serves the public API, the
      // gateway's replica forwarding to the other services' replicas.
      await Promise.all([
        startReplica(stack, 'atendimento-service', 'atendimento-service-sem-kafka', { OPS_PORT: String(atendimentoOps), INTERNAL_PORT: String(atendimentoPort) }),
        startReplica(stack, 'api-gateway', 'api-gateway-sem-kafka', {
          PUBLIC_PORT: String(port),
          OPS_PORT: String(gatewayOps),
          INSTANCE_ID: 'serial-sem-kafka',
          ATENDIMENTO_SERVICE_URL: `http://127.0.0.1:${atendimentoPort}`,
          TRACKING_SERVICE_URL: `http://127.0.0.1:${trackingPort}`,
          DELIVERY_SERVICE_URL: `http://127.0.0.1:${deliveryPort}`,
        }),
      ].map((started) => started.then((replica) => replicas.push(replica))));
      await Promise.all([
        startReplica(stack, 'tracking-service', 'tracking-service-sem-kafka', { OPS_PORT: String(trackingOps), INTERNAL_PORT: String(trackingPort) }),
        startReplica(stack, 'delivery-service', 'delivery-service-sem-kafka', { OPS_PORT: String(deliveryOps), INTERNAL_PORT: String(deliveryPort) }),
      ].map((started) => started.then((replica) => alsoStarted.push(replica))));
      for (const opsPort of [atendimentoOps, gatewayOps, deliveryOps]) {
        expect(await readiness(opsPort)).toMatchObject({ httpStatus: 200, status: 'degraded', checks: { database: 'ok', consumer: expect.stringMatching(/^(joining its group|not started \(.*\); retrying)$/) } });
        expect(await metricValue(opsPort, 'trilha_kafka_consumer_running')).toBe(0);
      }
      // The tracking service consumes nothing: only Kafka itself is missing.
      expect(await readiness(trackingOps)).toMatchObject({ httpStatus: 200, status: 'degraded', checks: { database: 'ok', kafka: expect.not.stringMatching(/^ok$/) } });
      const naReplica = (method: string, path: string, options: Parameters<typeof api>[2]) => api(method, `https://localhost:${port}/v1${path}`, options);
      // The tracking and delivery replicas answer through it: an order's event written, the webhook read.
      const rastreio = await naReplica('POST', '/pedidoRastreio/evento', {
        token: loja.token,
        body: { numeroPedido: `SEM-KAFKA-${loja.idLoja}`, codigoRastreio: 'BR-SEM-KAFKA', dataHora: '2026-11-21T10:00:00-03:00', descricao: 'Objeto postado' },
      });
      expect(rastreio.status).toBe(201);
      const webhook = await naReplica('GET', '/webhook', { token: loja.token });
      expect(webhook).toMatchObject({ status: 200, body: { url: receiver.url('/kafka-fora') } });
      // They stop during the outage: what they wrote waits in the outbox for the stack's relay.
      await Promise.all(alsoStarted.map((replica) => replica.stop()));
      const outraLoja = await naReplica('POST', '/admin/lojas', { headers: admin, body: { nome: 'Criada sem Kafka' } });
      expect(outraLoja.status).toBe(201);
      const aberto = await naReplica('POST', '/atendimentos', {
        token: loja.token,
        body: { canal: 'chat', tipo: 'duvida', dadosCliente: cliente, mensagem: 'Onde está meu pedido?' },
      });
      expect(aberto.status).toBe(201);
      const resposta = await api('POST', `/atendimentos/${aberto.body.idAtendimento}/mensagens`, {
        token: loja.token,
        body: { direcao: 'saida', remetente: 'atendente:ana', mensagem: 'Já verifico.' },
      });
      expect(resposta.status).toBe(201);
      expect(await pendingInOutbox('atendimento')).toBeGreaterThanOrEqual(3);
      expect(await pendingInOutbox('tracking')).toBeGreaterThanOrEqual(1);
      expect(await pendingInOutbox('gateway')).toBeGreaterThanOrEqual(1);
      expect(receiver.notifications('/kafka-fora')).toEqual([]);
      // What the alerts read: the outbox's oldest message ages (TrilhaOutboxStuck), and no lag is
      // measured while the broker does not answer.
      expect(await metricValue(stack.ports.ops['atendimento-service'], 'trilha_outbox_oldest_message_age_seconds')).toBeGreaterThan(0);
      expect(await (await fetch(`http://127.0.0.1:${stack.ports.ops['delivery-service']}/metrics`)).text()).not.toMatch(/^trilha_kafka_consumer_lag\{/m);

      await startInfra(stack, 'kafka');
      await eventually('the three notifications', () => (receiver.notifications('/kafka-fora').length >= 3 || undefined), 90_000, 200);
      await handledBy(stack.dataDir, 'delivery-service', { type: 'loja.criada', idLoja: outraLoja.body.idLoja });
      await eventually('every outbox drained', async () => ((await pendingInOutbox('atendimento')) + (await pendingInOutbox('gateway')) + (await pendingInOutbox('tracking')) === 0) || undefined, 30_000, 200);
      expect(await metricValue(stack.ports.ops['atendimento-service'], 'trilha_outbox_oldest_message_age_seconds')).toBe(0);
      // The processes started without Kafka join their consumer groups once Kafka is back.
      for (const opsPort of [atendimentoOps, gatewayOps]) {
        await eventually(`the replica on ${opsPort} ready, consuming`, async () => (await readiness(opsPort))?.status === 'ready' || undefined, 60_000, 200);
        expect(await metricValue(opsPort, 'trilha_kafka_consumer_running')).toBe(1);
      }
      for (const opsPort of [...Object.values(stack.ports.ops), atendimentoOps, gatewayOps]) {
        await eventually(`trilha_kafka_connected 1 on ${opsPort}`, async () => (await metricValue(opsPort, 'trilha_kafka_connected')) === 1 || undefined, 30_000, 200);
      }

      // Each event once, in the order the store's events occurred.
      await eventually('the three deliveries confirmed, and no other', async () => {
        const response = await api('GET', '/webhook/entregas', { token: loja.token });
        return (response.body.total === 3 && response.body.entregas.every((entrega: { status: string }) => entrega.status === 'entregue')) || undefined;
      });
      expect(eventos(receiver, '/kafka-fora')).toEqual(['atendimento.criado', 'atendimento.mensagem', 'atendimento.mensagem']);
    } finally {
      await startInfra(stack, 'kafka');
      await Promise.all([...replicas, ...alsoStarted].map((replica) => replica.stop()));
      await receiver.close();
      await eventually('every service ready, Kafka answering', () => everyServiceReady(stack), 90_000, 200);
    }
  }, 300_000);
});

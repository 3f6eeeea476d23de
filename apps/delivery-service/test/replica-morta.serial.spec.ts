import { TOPICS, type EventEnvelope } from '@trilha/contracts';
import {
  createStore, envelope, eventPublisher, eventually, isVerification, metricValue, registerWebhook, startReplica, testStack, WebhookReceiver, type Replica,
} from '@trilha/testing';

const stack = testStack();
const kafka = eventPublisher(stack);

afterAll(() => kafka.close());

describe('durable retries', () => {
  it('a replica killed with SIGKILL mid-retry loses nothing, and no confirmed delivery is sent again', async () => {
    const receiver = await WebhookReceiver.start(stack);
    const env = { OPS_PORT: String(stack.ports.ops['delivery-service'] + 40), INTERNAL_PORT: String(stack.ports.internal['delivery-service'] + 40) };
    let replica: Replica = await startReplica(stack, 'delivery-service', 'delivery-service-killed', env);
    // First attempts fail; retries are held open until released, then every request gets a 200.
    let soltar!: () => void;
    const solto = new Promise<void>((resolve) => (soltar = resolve));
    let liberado = false;
    try {
      const eventos: EventEnvelope[] = [];
      for (let n = 0; n < 8; n += 1) {
        const loja = await createStore(`Loja Falha ${n}`);
        const { idLoja } = loja;
        const path = `/falha/${idLoja}`;
        const vistos = new Set<string>();
        receiver.on(path, async (request) => {
          if (isVerification(request) || liberado) return { status: 200 };
          const id = String(request.headers['webhook-id']);
          if (!vistos.has(id)) {
            vistos.add(id);
            return { status: 500 };
          }
          await solto;
          return { status: 200 };
        });
        await registerWebhook(loja, receiver.url(path));
        for (let k = 0; k < 3; k += 1) {
          eventos.push(envelope('atendimento.mensagem', idLoja, {
            idAtendimento: `at-${k}`, idLoja, canal: 'chat', direcao: 'entrada', remetente: 'cliente', mensagem: `m${k}`, dataHora: new Date().toISOString(),
          }));
        }
      }
      await kafka.publish(TOPICS.atendimento, eventos);
      const retidas = () => receiver.received.filter((r) => r.path.startsWith('/falha/') && r.answered === undefined && !r.aborted);
      await eventually('every event’s retry held open, some by the replica', async () => retidas().length === eventos.length && (await metricValue(Number(env.OPS_PORT), 'trilha_webhook_attempts_in_flight')) > 0 || undefined, 30_000, 100);

      replica.child.kill('SIGKILL');
      await replica.stop();
      await eventually('the killed replica’s connections closed', () => receiver.received.some((r) => r.aborted) || undefined, 5_000);
      const perdidas = receiver.received.filter((r) => r.aborted).length;
      // The other replica's attempts are answered now (within their 10 s); then the restart.
      liberado = true;
      soltar();
      replica = await startReplica(stack, 'delivery-service', 'delivery-service-killed', env);

      // The killed replica's attempts become due again when their lease ends (30 s).
      const confirmadas = () => receiver.confirmations('/falha/');
      await eventually('every event confirmed', () => eventos.every((evento) => confirmadas().has(evento.id)) || undefined, 60_000, 250);
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const counts = confirmadas();
      expect(perdidas).toBeGreaterThan(0);
      expect(eventos.map((evento) => counts.get(evento.id))).toEqual(eventos.map(() => 1));
      expect(counts.size).toBe(eventos.length);
    } finally {
      liberado = true;
      soltar();
      await replica.stop();
      await receiver.close();
    }
  }, 150_000);
});

import type { EachBatchPayload, EachMessagePayload, KafkaMessage } from 'kafkajs';
import { KafkaServer, type EventPatternExtras } from './kafka-server';

const TOPIC = 'lojas.events.v1';

function message(type: string | undefined): EachMessagePayload {
  const envelope = { id: 'e-1', type: type ?? 'loja.criada', data: { idLoja: 1 } };
  return {
    topic: TOPIC,
    partition: 0,
    message: { key: Buffer.from('1'), value: Buffer.from(JSON.stringify(envelope)), headers: type === undefined ? {} : { 'event-type': Buffer.from(type) }, offset: '7', timestamp: '0', attributes: 0 },
    heartbeat: async () => undefined,
    pause: () => () => undefined,
  };
}

/** A Kafka server with one handler for TOPIC, recording the events it is given. */
function serverWith(extras?: EventPatternExtras) {
  const server = new KafkaServer({ client: { brokers: ['127.0.0.1:1'] } });
  const received: unknown[] = [];
  server.addHandler(TOPIC, async (data: unknown) => void received.push(data), true, extras);
  return { server, received };
}

describe('KafkaServer', () => {
  it('hands a handler the event types it names, and passes over the others unread', async () => {
    const { server, received } = serverWith({ eventTypes: ['loja.criada'] });
    await server.handleMessage(message('aplicativo.removido'));
    expect(received).toEqual([]);
    await server.handleMessage(message('loja.criada'));
    expect(received).toEqual([expect.objectContaining({ type: 'loja.criada' })]);
  });

  it('hands over every type when the handler names none', async () => {
    const { server, received } = serverWith();
    await server.handleMessage(message('aplicativo.removido'));
    expect(received).toEqual([expect.objectContaining({ type: 'aplicativo.removido' })]);
  });

  it('hands over a message without an event-type header, for the handler to judge', async () => {
    const { server, received } = serverWith({ eventTypes: ['loja.desativada'] });
    await server.handleMessage(message(undefined));
    expect(received).toEqual([expect.objectContaining({ type: 'loja.criada' })]);
  });

  describe('a fetched batch', () => {
    /** A batch of `count` messages; the server stops running once `runningFor` were handed over. */
    function batchOf(count: number, runningFor = Infinity) {
      const resolved: string[] = [];
      const messages = Array.from({ length: count }, (_, index) => ({ ...message('loja.criada').message, offset: String(index) }) as KafkaMessage);
      let handedOver = 0;
      const payload = {
        batch: { topic: TOPIC, partition: 0, messages },
        resolveOffset: (offset: string) => void resolved.push(offset),
        heartbeat: async () => undefined,
        pause: () => () => undefined,
        isRunning: () => handedOver < runningFor,
        isStale: () => false,
      } as unknown as EachBatchPayload;
      return { payload, resolved, count: () => (handedOver += 1) };
    }

    it('hands over each message once the one before it finished, and resolves its offset', async () => {
      const server = new KafkaServer({ client: { brokers: ['127.0.0.1:1'] } });
      const { payload, resolved } = batchOf(3);
      const events: string[] = [];
      server.addHandler(TOPIC, async (_data: unknown, context: { getMessage(): KafkaMessage }) => {
        events.push(`start ${context.getMessage().offset}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        events.push(`end ${context.getMessage().offset}`);
      }, true);
      await server.handleBatch(payload);
      expect(events).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'start 2', 'end 2']);
      expect(resolved).toEqual(['0', '1', '2']);
    });

    it('stops handing over when the consumer stops, between groups of 100, leaving the rest unresolved', async () => {
      const server = new KafkaServer({ client: { brokers: ['127.0.0.1:1'] } });
      const { payload, resolved, count } = batchOf(150, 100);
      server.addHandler(TOPIC, async () => void count(), true);
      await server.handleBatch(payload);
      expect(resolved).toHaveLength(100);
    });

    it('fails when a handling fails, hands over nothing after it, and resolves the offsets before it', async () => {
      const server = new KafkaServer({ client: { brokers: ['127.0.0.1:1'] } });
      const { payload, resolved } = batchOf(4);
      const handedOver: string[] = [];
      server.addHandler(TOPIC, async (_data: unknown, context: { getMessage(): KafkaMessage }) => {
        handedOver.push(context.getMessage().offset);
        if (context.getMessage().offset === '2') throw new Error('cannot');
      }, true);
      await expect(server.handleBatch(payload)).rejects.toThrow('cannot');
      expect(handedOver).toEqual(['0', '1', '2']);
      expect(resolved).toEqual(['0', '1']);
    });
  });
});

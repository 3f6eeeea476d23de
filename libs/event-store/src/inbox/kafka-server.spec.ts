import type { EachMessagePayload } from 'kafkajs';
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
});

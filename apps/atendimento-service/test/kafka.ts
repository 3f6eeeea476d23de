import { randomUUID } from 'node:crypto';
import { Partitioners, type Consumer, type Producer } from 'kafkajs';
import type { EventEnvelope } from '@trilha/contracts';
import { createKafka } from '@trilha/event-store';

/** What a test sees of a Kafka message: its key and its parsed envelope. */
export interface Received {
  key: string;
  envelope: EventEnvelope<Record<string, unknown>>;
}

/**
 * Reads a topic from the beginning in a group of its own and keeps every message, so a test
 * can look for the events its requests caused on the real topic.
 */
export async function topicReader(brokers: string, topic: string): Promise<{ received: Received[]; stop(): Promise<void> }> {
  const kafka = createKafka({ brokers: [brokers] }, `e2e-${topic}`);
  const consumer: Consumer = kafka.consumer({ groupId: `e2e-${topic}-${randomUUID()}` });
  const received: Received[] = [];
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      received.push({ key: String(message.key), envelope: JSON.parse(String(message.value)) });
    },
  });
  return { received, stop: () => consumer.disconnect() };
}

/** Produces contract-conformant envelopes to a topic, keyed by store, as the owning service would. */
export async function topicWriter(brokers: string, topic: string): Promise<{ send(idLoja: number, type: string, data: object): Promise<void>; stop(): Promise<void> }> {
  const kafka = createKafka({ brokers: [brokers] }, `e2e-writer-${topic}`);
  const producer: Producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, allowAutoTopicCreation: false });
  await producer.connect();
  return {
    async send(idLoja, type, data) {
      const envelope: EventEnvelope = {
        id: randomUUID(), type, schemaVersion: 1, occurredAt: new Date().toISOString(), idLoja,
        correlationId: randomUUID(), causationId: null, traceparent: null, data,
      };
      await producer.send({ topic, acks: -1, messages: [{ key: String(idLoja), value: JSON.stringify(envelope) }] });
    },
    stop: () => producer.disconnect(),
  };
}

import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import type { EventEnvelope } from '@trilha/contracts';
import type { TestStack } from './stack';

/** What a test sees of a Kafka message: its key and its parsed envelope. */
export interface ReceivedMessage {
  key: string;
  envelope: EventEnvelope<Record<string, unknown>>;
}

/**
 * Reads a topic of the stack's Kafka from the beginning in a group of its own and keeps every
 * message that is JSON, so a test can look for the events its requests caused on the real topic.
 * A poison message another test produces (mensagens-estacionadas.e2e) is passed over: thrown
 * from `eachMessage`, it would stop the reader at its offset for good.
 */
export async function topicReader(stack: TestStack, topic: string): Promise<{ received: ReceivedMessage[]; stop(): Promise<void> }> {
  const kafka = new Kafka({ brokers: [stack.infra.kafkaBrokers], clientId: `e2e-${topic}`, logLevel: logLevel.NOTHING });
  const consumer = kafka.consumer({ groupId: `e2e-${topic}-${randomUUID()}` });
  const received: ReceivedMessage[] = [];
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      const envelope = parsedJson(String(message.value));
      if (envelope) received.push({ key: String(message.key), envelope });
    },
  });
  return { received, stop: () => consumer.disconnect() };
}

function parsedJson(value: string): ReceivedMessage['envelope'] | undefined {
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

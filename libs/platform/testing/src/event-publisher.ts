import { randomBytes } from 'node:crypto';
import { Kafka, logLevel, Partitioners, type Message, type Producer } from 'kafkajs';
import type { EventEnvelope } from '@trilha/contracts';
import { novoId } from '@trilha/ids';
import type { TestStack } from './stack';

/** A contract-conformant envelope (libs/contracts/src/envelope.ts) with a fresh id and trace. */
export function envelope<T extends object>(type: string, idLoja: number, data: T): EventEnvelope<T> {
  return {
    id: novoId(),
    type,
    schemaVersion: 1,
    occurredAt: new Date().toISOString(),
    idLoja,
    correlationId: novoId(),
    causationId: null,
    traceparent: `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`,
    data,
  };
}

/**
 * Produces events straight to a topic of the stack's Kafka, as their owning service's outbox
 * relay would: keyed by `idLoja`, with the event id, type and `traceparent` as headers.
 */
export function eventPublisher(stack: TestStack) {
  const kafka = new Kafka({ brokers: [stack.infra.kafkaBrokers], clientId: 'trilha-tests', logLevel: logLevel.NOTHING });
  let producer: Promise<Producer> | undefined;
  /** Produces messages as they are given, whatever their value: a poison message too. */
  const publishRaw = async (topic: string, messages: Message[]): Promise<void> => {
    producer ??= (async () => {
      const created = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, allowAutoTopicCreation: false });
      await created.connect();
      return created;
    })();
    await (await producer).send({ topic, acks: -1, messages });
  };
  return {
    publishRaw,
    publish(topic: string, events: EventEnvelope[]): Promise<void> {
      return publishRaw(topic, events.map((event) => ({
        key: String(event.idLoja),
        value: JSON.stringify(event),
        headers: { 'event-id': event.id, 'event-type': event.type, ...(event.traceparent && { traceparent: event.traceparent }) },
      })));
    },
    async close(): Promise<void> {
      await (await producer)?.disconnect();
    },
  };
}

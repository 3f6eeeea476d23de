import { randomBytes, randomUUID } from 'node:crypto';
import { Partitioners, type Kafka, type Producer } from 'kafkajs';
import type { EventEnvelope } from '@trilha/contracts';

/** A contract-conformant envelope (libs/contracts/src/envelope.ts) with a fresh id and trace. */
export function envelope<T extends object>(type: string, idLoja: number, data: T): EventEnvelope<T> {
  return {
    id: randomUUID(),
    type,
    schemaVersion: 1,
    occurredAt: new Date().toISOString(),
    idLoja,
    correlationId: randomUUID(),
    causationId: null,
    traceparent: `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`,
    data,
  };
}

/**
 * Produces events straight to a topic, as their owning service's outbox relay would: keyed by
 * `idLoja`, with the event id, type and `traceparent` as headers. Give it a client of the stack's
 * Kafka: `createKafka({ brokers: [stack.infra.kafkaBrokers] }, …)` (@trilha/event-store).
 */
export function eventPublisher(kafka: Kafka) {
  let producer: Promise<Producer> | undefined;
  return {
    async publish(topic: string, events: EventEnvelope[]): Promise<void> {
      producer ??= (async () => {
        const created = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, allowAutoTopicCreation: false });
        await created.connect();
        return created;
      })();
      await (await producer).send({
        topic,
        acks: -1,
        messages: events.map((event) => ({
          key: String(event.idLoja),
          value: JSON.stringify(event),
          headers: { 'event-id': event.id, 'event-type': event.type, ...(event.traceparent && { traceparent: event.traceparent }) },
        })),
      });
    },
    async close(): Promise<void> {
      await (await producer)?.disconnect();
    },
  };
}

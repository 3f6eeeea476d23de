import { KafkaContext } from '@nestjs/microservices';
import { randomUUID } from 'node:crypto';
import type { KafkaMessage } from 'kafkajs';
import { DataSource } from 'typeorm';
import { IsString } from 'class-validator';
import type { EventEnvelope } from '@trilha/contracts';
import { testStack, eventually } from '@trilha/testing';
import { dataSourceOptions, migrate, type ServiceDatabase } from '../database';
import { createKafka } from '../kafka';
import { MessageConsumer } from './message-consumer';
import { ParkedMessages, REPLAY_FOR_HEADER } from './parked-messages';

class NoteData {
  @IsString() text: string;
}

describe('parked messages (PostgreSQL and Kafka)', () => {
  const stack = testStack();
  const schema = `it_parked_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const topic = `it.parked.${schema}.v1`;
  const database: ServiceDatabase = { url: stack.infra.databaseUrl, schema, poolSize: 3, migrations: [] };
  const kafka = createKafka({ brokers: [stack.infra.kafkaBrokers] }, `it-${schema}`);
  const contract = { note: { data: NoteData, schemaVersions: [1] } };
  let dataSource: DataSource;

  beforeAll(async () => {
    await migrate(database);
    dataSource = await new DataSource(dataSourceOptions(database)).initialize();
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
    await admin.disconnect();
  });

  afterAll(async () => {
    await dataSource.query(`DROP SCHEMA ${schema} CASCADE`);
    await dataSource.destroy();
  });

  const context = (offset: string, value: unknown, headers: Record<string, string> = {}) =>
    new KafkaContext([{ key: Buffer.from('7'), value: Buffer.from(JSON.stringify(value)), headers, offset } as unknown as KafkaMessage, 0, topic, {} as never, (async () => undefined) as never, {} as never]);
  const note = (text: string) => ({
    id: randomUUID(), type: 'note', schemaVersion: 1, occurredAt: new Date().toISOString(), idLoja: 7, correlationId: 'c', causationId: null,
    traceparent: `00-${'ab'.repeat(16)}-${'cd'.repeat(8)}-01`, data: { text },
  });

  it('parks a message whose handler keeps failing, once however often Kafka delivers it, and goes on', async () => {
    const consumer = new MessageConsumer(dataSource, { triesBeforeParking: 3, firstBackoffMs: 10 });
    let calls = 0;
    const failing = async () => {
      calls += 1;
      throw new Error('the handler cannot take this');
    };
    await consumer.consume('it.failing', context('41', note('um')), contract, failing);
    expect(calls).toBe(3);
    await consumer.consume('it.failing', context('41', note('um')), contract, failing);
    const handled: string[] = [];
    await consumer.consume<EventEnvelope<NoteData>>('it.failing', context('42', note('dois')), contract, async (event) => void handled.push(event.data.text));
    expect(handled).toEqual(['dois']);

    const [parked, ...more] = await new ParkedMessages(dataSource).list();
    expect(more).toEqual([]);
    expect(parked).toMatchObject({
      consumer: 'it.failing', topic, partition: 0, offset: '41', key: '7', traceId: null,
      reason: 'handler failed 3 times: the handler cannot take this', replayedAt: null,
    });
    expect(JSON.parse(parked.value!.toString('utf8')).data).toEqual({ text: 'um' });
  });

  it('handles a replayed message once the cause of its parking is fixed, and the same replay asked twice at once produces it once', async () => {
    const parked = new ParkedMessages(dataSource);
    const consumer = new MessageConsumer(dataSource, { triesBeforeParking: 2, firstBackoffMs: 10 });
    let broken = true;
    const handled: string[] = [];
    const handler = async (event: EventEnvelope<NoteData>) => {
      if (broken) throw new Error('the note service is misconfigured');
      handled.push(event.data.text);
    };
    await consumer.consume('it.fixed', context('60', note('três')), contract, handler);
    expect(handled).toEqual([]);
    const [waiting] = (await parked.list()).filter((message) => message.consumer === 'it.fixed');
    expect(waiting).toMatchObject({ offset: '60', reason: 'handler failed 2 times: the note service is misconfigured' });

    broken = false;
    const reader = kafka.consumer({ groupId: `it-${schema}-fixed-reader` });
    const received: KafkaMessage[] = [];
    await reader.connect();
    await reader.subscribe({ topic, fromBeginning: true });
    await reader.run({ eachMessage: async ({ message }) => void (String(message.headers?.[REPLAY_FOR_HEADER]) === 'it.fixed' && received.push(message)) });
    try {
      const outcomes = await Promise.allSettled([parked.replay(kafka, [waiting.id]), parked.replay(kafka, [waiting.id])]);
      expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
      const [replayed] = await eventually('the replayed message on the topic', () => (received.length > 0 ? received : undefined));
      await consumer.consume('it.fixed', new KafkaContext([replayed, 0, topic, {} as never, (async () => undefined) as never, {} as never]), contract, handler);
      expect(handled).toEqual(['três']);
      expect(received).toHaveLength(1);
      expect((await parked.list()).map((message) => message.id)).not.toContain(waiting.id);
    } finally {
      await reader.disconnect();
    }
  });

  it('replays a parked message to its topic and partition, for its consumer only', async () => {
    const parked = new ParkedMessages(dataSource);
    const consumer = new MessageConsumer(dataSource, { triesBeforeParking: 1, firstBackoffMs: 10 });
    await consumer.consume('it.replay', context('50', { not: 'an envelope' }, { traceparent: `00-${'12'.repeat(16)}-${'34'.repeat(8)}-01` }), contract, async () => undefined);
    const [waiting] = (await parked.list()).filter((message) => message.consumer === 'it.replay');
    expect(waiting).toMatchObject({ offset: '50', traceId: '12'.repeat(16), reason: expect.stringMatching(/^invalid message: /) });

    const reader = kafka.consumer({ groupId: `it-${schema}-reader` });
    const received: KafkaMessage[] = [];
    await reader.connect();
    await reader.subscribe({ topic, fromBeginning: true });
    // The topic is this file's: only the other test's replay is on it besides this one.
    await reader.run({ eachMessage: async ({ message }) => void (String(message.headers?.[REPLAY_FOR_HEADER]) !== 'it.fixed' && received.push(message)) });
    try {
      expect(await parked.replay(kafka, [waiting.id])).toEqual([waiting]);
      const [replayed] = await eventually('the replayed message on the topic', () => (received.length > 0 ? received : undefined));
      expect(String(replayed.key)).toBe('7');
      expect(String(replayed.headers?.[REPLAY_FOR_HEADER])).toBe('it.replay');
      expect(JSON.parse(String(replayed.value))).toEqual({ not: 'an envelope' });
      expect((await parked.list()).map((message) => message.id)).not.toContain(waiting.id);
      expect((await parked.list({ all: true })).find((message) => message.id === waiting.id)?.replayedAt).toBeInstanceOf(Date);

      // Another consumer of the topic passes the replay over; the consumer it is for handles it.
      const seen: string[] = [];
      const replayContext = () => new KafkaContext([replayed, 0, topic, {} as never, (async () => undefined) as never, {} as never]);
      await consumer.consume('it.other', replayContext(), contract, async () => void seen.push('other'));
      expect(seen).toEqual([]);
      await expect(parked.replay(kafka, [waiting.id])).rejects.toThrow(`no parked message waiting with id ${waiting.id}`);
    } finally {
      await reader.disconnect();
    }
  });
});

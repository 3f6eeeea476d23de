import { randomUUID } from 'node:crypto';
import { Partitioners } from 'kafkajs';
import { createKafka } from '@trilha/event-store';
import { testStack } from '@trilha/testing';
import { consumerLag } from './consumer-lag';

describe('a consumer group’s lag (Kafka)', () => {
  const stack = testStack();
  const id = randomUUID().slice(0, 8);
  const topic = `it.lag.${id}.v1`;
  const groupId = `it-lag-${id}`;
  const admin = createKafka({ brokers: [stack.infra.kafkaBrokers] }, `it-lag-${id}`).admin();

  beforeAll(async () => {
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 2 }], waitForLeaders: true });
  });
  afterAll(() => admin.disconnect());

  it('is each partition’s high watermark minus the group’s committed offset, leaving out a partition the group has not committed on', async () => {
    const producer = createKafka({ brokers: [stack.infra.kafkaBrokers] }, `it-lag-${id}-producer`).producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    try {
      await producer.send({ topic, acks: -1, messages: [...Array(5).keys()].map((n) => ({ partition: 0, value: String(n) })) });
      await producer.send({ topic, acks: -1, messages: [{ partition: 1, value: 'x' }, { partition: 1, value: 'y' }] });
    } finally {
      await producer.disconnect();
    }
    expect(await consumerLag(admin, groupId, [topic])).toEqual([]);
    // The group has handled the first three messages of partition 0, none of partition 1.
    await admin.setOffsets({ groupId, topic, partitions: [{ partition: 0, offset: '3' }] });
    expect(await consumerLag(admin, groupId, [topic])).toEqual([{ topic, partition: 0, lag: 2 }]);
    await admin.setOffsets({ groupId, topic, partitions: [{ partition: 0, offset: '5' }, { partition: 1, offset: '0' }] });
    expect((await consumerLag(admin, groupId, [topic])).sort((a, b) => a.partition - b.partition)).toEqual([{ topic, partition: 0, lag: 0 }, { topic, partition: 1, lag: 2 }]);
  });
});

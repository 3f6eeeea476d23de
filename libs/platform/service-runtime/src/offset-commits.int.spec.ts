import { randomUUID } from 'node:crypto';
import { Partitioners, type Consumer, type EachBatchPayload } from 'kafkajs';
import { createKafka } from '@trilha/event-store';
import { eventually, testStack } from '@trilha/testing';
import { OFFSET_COMMIT_INTERVAL_MS } from './run-service';

/**
 * kafkajs as the services consume (eachBatch, offsets resolved by the handler, commits on an
 * interval), with patches/kafkajs+2.2.4.patch: commits keep to the interval however many
 * batches arrive, an idle partition's fetch commits what is left, and a stopping consumer
 * commits what it handled.
 */
describe('offset commits of a consumer with a commit interval (Kafka)', () => {
  const stack = testStack();
  const id = randomUUID().slice(0, 8);
  const topic = `it.commits.${id}.v1`;
  const kafka = createKafka({ brokers: [stack.infra.kafkaBrokers] }, `it-commits-${id}`);
  const admin = kafka.admin();
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  const PARTITIONS = 4;

  beforeAll(async () => {
    await Promise.all([admin.connect(), producer.connect()]);
    await admin.createTopics({ topics: [{ topic, numPartitions: PARTITIONS }], waitForLeaders: true });
  });
  afterAll(() => Promise.all([admin.disconnect(), producer.disconnect()]));

  const sendOnePerPartition = () => producer.send({ topic, acks: -1, messages: [...Array(PARTITIONS).keys()].map((partition) => ({ partition, value: 'x' })) });
  const committed = async (groupId: string) => (await admin.fetchOffsets({ groupId, topics: [topic] }))[0].partitions.reduce((sum, { offset }) => sum + Math.max(0, Number(offset)), 0);
  const end = async () => (await admin.fetchTopicOffsets(topic)).reduce((sum, { high }) => sum + Number(high), 0);

  /** A consumer of the topic from its start that resolves each message's offset, as KafkaServer does; `handled` counts them. */
  async function consume(groupId: string, autoCommitInterval: number): Promise<{ consumer: Consumer; handled: () => number; commits: () => number }> {
    const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 100 });
    let handled = 0;
    let commits = 0;
    consumer.on(consumer.events.COMMIT_OFFSETS, () => (commits += 1));
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    const joined = new Promise((resolve) => consumer.on(consumer.events.GROUP_JOIN, resolve));
    await consumer.run({
      partitionsConsumedConcurrently: PARTITIONS,
      autoCommitInterval,
      eachBatchAutoResolve: false,
      eachBatch: async ({ batch, resolveOffset }: EachBatchPayload) => {
        for (const message of batch.messages) {
          handled += 1;
          resolveOffset(message.offset);
        }
      },
    });
    await joined;
    return { consumer, handled: () => handled, commits: () => commits };
  }

  it('commits at most once an interval while batches keep coming, then what is left once its partitions are idle', async () => {
    const { consumer, handled, commits } = await consume(`it-commits-${id}-busy`, OFFSET_COMMIT_INTERVAL_MS);
    try {
      const sentAt = Date.now();
      // A batch per partition every 50 ms: kafkajs alone commits after each of them.
      for (let round = 0; round < 20; round += 1) {
        await sendOnePerPartition();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await eventually('every message handled', () => (handled() === 20 * PARTITIONS ? true : undefined), 15_000);
      const intervals = Math.ceil((Date.now() - sentAt) / OFFSET_COMMIT_INTERVAL_MS);
      expect(commits()).toBeLessThanOrEqual(intervals + 1);
      await eventually('the last offsets committed while idle', async () => ((await committed(`it-commits-${id}-busy`)) === (await end()) ? true : undefined), 3 * OFFSET_COMMIT_INTERVAL_MS + 2_000);
    } finally {
      await consumer.disconnect();
    }
  });

  it('commits what it handled when it stops, however long its interval', async () => {
    const groupId = `it-commits-${id}-stop`;
    const { consumer, handled } = await consume(groupId, 600_000);
    const total = await end();
    await eventually('every message handled', () => (handled() === total ? true : undefined), 15_000);
    expect(await committed(groupId)).toBe(0);
    await consumer.disconnect();
    expect(await committed(groupId)).toBe(total);
  });
});

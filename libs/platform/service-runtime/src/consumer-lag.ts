import type { Admin } from 'kafkajs';
import { Gauge } from 'prom-client';
import { withTimeout } from '@trilha/observability';

/** The consumer group of this process and the topics it reads, whose lag each scrape measures. */
let measured: { admin: Admin; groupId: string; topics: readonly string[] } | undefined;

new Gauge({
  name: 'trilha_kafka_consumer_lag',
  help: 'Messages of a partition not yet committed by the consumer group (high watermark minus committed offset), as the broker answers at the scrape; no series while Kafka does not answer or the group has committed nothing on the partition',
  labelNames: ['group', 'topic', 'partition'],
  async collect() {
    this.reset();
    if (!measured) return;
    const lags = await withTimeout(consumerLag(measured.admin, measured.groupId, measured.topics), 2000).catch(() => []);
    for (const { topic, partition, lag } of lags) this.set({ group: measured.groupId, topic, partition: String(partition) }, lag);
  },
});

export interface PartitionLag {
  topic: string;
  partition: number;
  lag: number;
}

/**
 * The lag of `groupId` on every partition of `topics`: the partition's high watermark minus the
 * group's committed offset, through the admin client (the broker's view, as KEDA and
 * kafka-consumer-groups.sh compute it). A partition where the group committed nothing is left
 * out: a group that starts at the latest offset (a gateway replica's) has no lag to speak of there.
 */
export async function consumerLag(admin: Admin, groupId: string, topics: readonly string[]): Promise<PartitionLag[]> {
  const [committed, ends] = await Promise.all([
    admin.fetchOffsets({ groupId, topics: [...topics] }),
    Promise.all(topics.map(async (topic) => ({ topic, partitions: await admin.fetchTopicOffsets(topic) }))),
  ]);
  const high = new Map(ends.flatMap(({ topic, partitions }) => partitions.map(({ partition, high: offset }) => [`${topic}/${partition}`, Number(offset)])));
  return committed.flatMap(({ topic, partitions }) =>
    partitions
      .filter(({ offset }) => Number(offset) >= 0)
      .map(({ partition, offset }) => ({ topic, partition, lag: Math.max(0, (high.get(`${topic}/${partition}`) ?? 0) - Number(offset)) })),
  );
}

/** Publishes the lag of this process's consumer group as `trilha_kafka_consumer_lag`, measured at every scrape. */
export function measureConsumerLag(admin: Admin, groupId: string, topics: readonly string[]): void {
  measured = { admin, groupId, topics };
}

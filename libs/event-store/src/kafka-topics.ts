import type { KafkaConnection } from '@trilha/config';
import { createKafka } from './kafka';

export interface TopicToEnsure {
  name: string;
  partitions: number;
  /** Absent: the brokers' default.replication.factor. */
  replicationFactor?: number;
  config: Record<string, string>;
}

/**
 * Creates the topics that do not exist yet and leaves existing ones as they are: their
 * partitions are never changed here, because adding partitions moves keys (stores) to other
 * partitions and breaks the order of one store's events; a difference is reported instead, for an
 * operator to decide. Returns one line per topic: `<name>: created|exists, <n> partitions[ (…)]`.
 * The local stack (tools/stack.mjs) and the chart's topics Job (`main.js create-topics`) use it.
 */
export async function ensureTopics(connection: KafkaConnection, topics: TopicToEnsure[], clientId: string): Promise<string[]> {
  const admin = createKafka(connection, clientId).admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter((topic) => !existing.has(topic.name));
    if (missing.length > 0) {
      await admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((topic) => ({
          topic: topic.name,
          numPartitions: topic.partitions,
          replicationFactor: topic.replicationFactor ?? -1,
          configEntries: Object.entries(topic.config).map(([name, value]) => ({ name, value })),
        })),
      });
    }
    const { topics: metadata } = await admin.fetchTopicMetadata({ topics: topics.map((topic) => topic.name) });
    return topics.map((topic) => {
      const partitions = metadata.find((found) => found.name === topic.name)!.partitions.length;
      const note = partitions === topic.partitions ? '' : ` (${topic.partitions} wanted: left unchanged)`;
      return `${topic.name}: ${missing.includes(topic) ? 'created' : 'exists'}, ${partitions} partitions${note}`;
    });
  } finally {
    await admin.disconnect();
  }
}

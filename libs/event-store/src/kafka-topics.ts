import type { Admin, ITopicMetadata } from 'kafkajs';
import type { KafkaConnection } from '@trilha/config';
import { createKafka } from './kafka';

/** How long new topics may take to have a leader for every partition. */
const LEADERS_TIMEOUT_MS = 30_000;

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
        // Not kafkajs's wait: it gives up at the first "does not host this topic-partition",
        // which a KRaft broker answers until the new topic reaches its metadata cache.
        waitForLeaders: false,
        topics: missing.map((topic) => ({
          topic: topic.name,
          numPartitions: topic.partitions,
          replicationFactor: topic.replicationFactor ?? -1,
          configEntries: Object.entries(topic.config).map(([name, value]) => ({ name, value })),
        })),
      });
    }
    const metadata = await withLeaders(admin, topics.map((topic) => topic.name));
    return topics.map((topic) => {
      const partitions = metadata.find((found) => found.name === topic.name)!.partitions.length;
      const note = partitions === topic.partitions ? '' : ` (${topic.partitions} wanted: left unchanged)`;
      return `${topic.name}: ${missing.includes(topic) ? 'created' : 'exists'}, ${partitions} partitions${note}`;
    });
  } finally {
    await admin.disconnect();
  }
}

/** The topics' metadata once every partition of each has a leader, asking again until LEADERS_TIMEOUT_MS. */
async function withLeaders(admin: Admin, names: string[]): Promise<ITopicMetadata[]> {
  const until = Date.now() + LEADERS_TIMEOUT_MS;
  for (;;) {
    const answer = await admin.fetchTopicMetadata({ topics: names }).then(
      ({ topics }) => topics,
      (error: Error) => error,
    );
    const ready = !(answer instanceof Error) && answer.every((topic) => topic.partitions.length > 0 && topic.partitions.every((partition) => partition.leader >= 0));
    if (ready) return answer;
    if (Date.now() >= until) {
      throw answer instanceof Error ? answer : new Error(`topics ${names.join(', ')} have no leader for every partition after ${LEADERS_TIMEOUT_MS / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

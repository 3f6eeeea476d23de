import { z } from 'zod';
import { kafkaConnection, kafkaSettings, loadConfigOrExit, serviceConfigSchema } from '@trilha/config';
import { TOPIC_SPECS } from '@trilha/contracts';
import { ensureTopics } from '@trilha/event-store';

const topic = z.object({
  name: z.string().min(1),
  partitions: z.number().int().min(1),
  replicationFactor: z.number().int().min(1).optional(),
  config: z.record(z.string(), z.union([z.string(), z.number()]).transform(String)),
});

const topicList = z
  .string()
  .transform((json, context) => {
    try {
      return JSON.parse(json) as unknown;
    } catch {
      context.addIssue({ code: 'custom', message: 'must be JSON: [{name, partitions, replicationFactor, config}]' });
      return z.NEVER;
    }
  })
  .pipe(z.array(topic).min(1));

const createTopicsConfigSchema = serviceConfigSchema({
  ...kafkaSettings,
  /** The topics, as the chart lists them. Unset: every topic of libs/contracts, replicated as the brokers' default. */
  KAFKA_TOPICS: topicList.optional(),
});

/**
 * `main.js create-topics`: creates the Kafka topics that are missing, prints one line per topic
 * and exits. The chart's topics Job runs it (any service image has it); it needs only the Kafka
 * settings, not the service's own.
 */
export async function createTopics(): Promise<void> {
  const config = loadConfigOrExit(createTopicsConfigSchema);
  const lines = await ensureTopics(kafkaConnection(config), config.KAFKA_TOPICS ?? TOPIC_SPECS, 'trilha-create-topics');
  for (const line of lines) process.stdout.write(`${line}\n`);
}

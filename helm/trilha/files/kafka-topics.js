// Creates the Kafka topics Trilha needs that do not exist yet (the chart's pre-install and
// pre-upgrade hook). Existing topics are left as they are: their partitions are never changed
// here, because adding partitions moves keys (stores) to other partitions and breaks the order
// of one store's events; a difference is reported so that an operator can decide.
// Env: KAFKA_BROKERS (host:port,…), TOPICS (JSON: [{name, partitions, replicationFactor, config}]).
const { Kafka, logLevel } = require('kafkajs');

const topics = JSON.parse(process.env.TOPICS);
const brokers = process.env.KAFKA_BROKERS.split(',').map((broker) => broker.trim()).filter(Boolean);
const admin = new Kafka({ clientId: 'trilha-kafka-topics', brokers, logLevel: logLevel.WARN }).admin();
const say = (line) => process.stdout.write(`${line}\n`);

(async () => {
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
          replicationFactor: topic.replicationFactor,
          configEntries: Object.entries(topic.config).map(([name, value]) => ({ name, value: String(value) })),
        })),
      });
    }
    const { topics: metadata } = await admin.fetchTopicMetadata({ topics: topics.map((topic) => topic.name) });
    for (const topic of topics) {
      const partitions = metadata.find((found) => found.name === topic.name).partitions.length;
      const state = missing.includes(topic) ? 'created' : 'exists';
      const note = partitions === topic.partitions ? '' : ` (values say ${topic.partitions}: left unchanged)`;
      say(`${topic.name}: ${state}, ${partitions} partitions${note}`);
    }
  } finally {
    await admin.disconnect();
  }
})().catch((error) => {
  process.stderr.write(`kafka topics: ${error.message}\n`);
  process.exit(1);
});

import { randomUUID } from 'node:crypto';
import { Kafka, Partitioners } from 'kafkajs';
import { kafkaConnection, kafkaSettings, loadConfig, serviceConfigSchema, type KafkaConnection } from '@trilha/config';
import { eventually, testStack } from '@trilha/testing';
import { createKafka, kafkaClientConfig } from './kafka';
import { ensureTopics } from './kafka-topics';

/**
 * Kafka with TLS and SASL, as managed Kafkas ask for it: the local broker's SASL_SSL listener
 * (deploy/local/kafka.mjs: a certificate of its own CA, SASL PLAIN and SCRAM), reached with the
 * settings a service reads from its environment, parsed by the same schema.
 */
const stack = testStack();
const secure = stack.infra.kafkaSaslSsl;
const topic = `it.kafka-security.${randomUUID().slice(0, 8)}.v1`;

function settings(mechanism: string, overrides: Record<string, string | undefined> = {}): KafkaConnection {
  const env = {
    KAFKA_BROKERS: secure.brokers,
    KAFKA_SSL: 'true',
    KAFKA_SSL_CA_FILE: secure.caFile,
    KAFKA_SASL_MECHANISM: mechanism,
    KAFKA_SASL_USERNAME: secure.username,
    KAFKA_SASL_PASSWORD: secure.password,
    ...overrides,
  };
  return kafkaConnection(loadConfig(serviceConfigSchema(kafkaSettings), env));
}

beforeAll(async () => {
  // The topics Job's code, over SASL_SSL.
  const lines = await ensureTopics(settings('scram-sha-512'), [{ name: topic, partitions: 1, config: {} }], 'it-kafka-security');
  expect(lines).toEqual([`${topic}: created, 1 partitions`]);
});

afterAll(async () => {
  const admin = createKafka(settings('scram-sha-512'), 'it-kafka-security').admin();
  await admin.connect();
  await admin.deleteTopics({ topics: [topic] });
  await admin.disconnect();
});

describe('Kafka over TLS with SASL', () => {
  it.each(secure.mechanisms)('produces and consumes with SASL %s', async (mechanism) => {
    const kafka = createKafka(settings(mechanism), `it-kafka-security-${mechanism}`);
    const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, allowAutoTopicCreation: false });
    // A short long-poll: disconnecting waits for the fetch in flight.
    const consumer = kafka.consumer({ groupId: `it-kafka-security-${mechanism}-${randomUUID()}`, maxWaitTimeInMs: 100 });
    const value = `sent with ${mechanism}`;
    const received: string[] = [];
    try {
      await producer.connect();
      await producer.send({ topic, acks: -1, messages: [{ key: '1', value }] });
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({ eachMessage: async ({ message }) => void received.push(String(message.value)) });
      await eventually(`the message sent with ${mechanism} read back`, () => received.includes(value) || undefined, 20_000);
    } finally {
      await producer.disconnect();
      await consumer.disconnect();
    }
  });

  it('refuses a wrong password with an error that says so', async () => {
    const admin = createKafka(settings('scram-sha-512', { KAFKA_SASL_PASSWORD: 'not-the-password' }), 'it-kafka-security-wrong').admin();
    await expect(admin.connect()).rejects.toThrow(/SASL SCRAM SHA512 authentication failed: Authentication failed during authentication due to invalid credentials/);
    const plain = createKafka(settings('plain', { KAFKA_SASL_USERNAME: 'someone-else' }), 'it-kafka-security-wrong').admin();
    await expect(plain.connect()).rejects.toThrow(/SASL PLAIN authentication failed: Authentication failed: Invalid username or password/);
  });

  it('checks the brokers\' certificate: without their CA the connection is refused', async () => {
    // The system's CAs do not know the local broker's; no retries, the answer will not change.
    const connection = settings('scram-sha-512', { KAFKA_SSL_CA_FILE: undefined });
    const admin = new Kafka({ ...kafkaClientConfig(connection, 'it-kafka-security-no-ca'), retry: { retries: 0 } }).admin();
    await expect(admin.connect()).rejects.toThrow(/self-signed certificate/);
  });
});

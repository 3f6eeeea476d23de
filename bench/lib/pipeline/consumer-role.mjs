// Role 3 of bench/pipeline-ceiling.mjs: the consumer (kafkajs + pg + node:https client). Each
// message commits one inbox row (its own transaction: one statement, prepared, one fsync) and
// is then POSTed over HTTPS to the receiver, a webhook with the event's id in `webhook-id`. The
// partitions are consumed concurrently, with one database connection per partition. `order`:
// `partition`, one message at a time within a partition (one HTTPS connection each); `store`,
// the stores of a fetched batch concurrently, one message at a time within a store (up to
// `maxSockets` HTTPS connections), as a delivery service pushes to many stores at once.
//   settings: { databaseUrl, schema, brokers, topic, groupId, partitions, order, maxSockets,
//               fetchMinBytes, fetchMaxWaitMs, receiverUrl, certFile, lifetimeSeconds }
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { createRequire } from 'node:module';
import { roleKit, sleep } from './role-kit.mjs';

const require = createRequire(import.meta.url);
const { Pool } = require('pg');
const { Kafka, logLevel } = require('kafkajs');

const { settings, ready, onStop, log } = roleKit('role 3 (consumer)');
const { schema, topic, partitions } = settings;
const pool = new Pool({ connectionString: settings.databaseUrl, max: partitions });
pool.on('error', (error) => log(`idle connection failed: ${error.message}`));
const inbox = { name: 'inbox', text: `INSERT INTO ${schema}.inbox (event_id, store) VALUES ($1, $2) ON CONFLICT DO NOTHING` };
const agent = new Agent({ keepAlive: true, maxSockets: settings.maxSockets, ca: readFileSync(settings.certFile) });
const receiver = new URL(settings.receiverUrl);
const POST_TIMEOUT_MS = 10_000;

/** POSTs one event to the receiver; resolves once it answered 2xx. */
function post(id, body) {
  return new Promise((resolve, reject) => {
    const outgoing = request(receiver, {
      method: 'POST',
      agent,
      timeout: POST_TIMEOUT_MS,
      headers: { 'content-type': 'application/json', 'content-length': body.length, 'webhook-id': id },
    }, (response) => {
      response.resume();
      response.on('end', () => (response.statusCode >= 200 && response.statusCode < 300 ? resolve() : reject(new Error(`receiver answered ${response.statusCode}`))));
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error('receiver timed out')));
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const kafka = new Kafka({ brokers: [settings.brokers], clientId: 'ceiling-consumer', logLevel: logLevel.ERROR, retry: { retries: 3 } });
const consumer = kafka.consumer({
  groupId: settings.groupId,
  allowAutoTopicCreation: false,
  minBytes: settings.fetchMinBytes,
  maxWaitTimeInMs: settings.fetchMaxWaitMs,
  retry: { retries: 3 },
});
const joined = new Promise((resolve) => consumer.on(consumer.events.GROUP_JOIN, resolve));
consumer.on(consumer.events.CRASH, ({ payload }) => log(`crashed: ${payload.error?.message}`));
await Promise.all([pool.query('SELECT 1'), consumer.connect()]);
await consumer.subscribe({ topic, fromBeginning: true });
async function handle(message) {
  const { id, store } = JSON.parse(message.value.toString('utf8'));
  await pool.query({ ...inbox, values: [id, store] });
  await post(id, message.value);
}

/** A fetched batch by store, each store's messages in order, the stores concurrently. */
async function eachBatch({ batch, heartbeat }) {
  const byStore = new Map();
  for (const message of batch.messages) {
    const key = String(message.key);
    if (!byStore.has(key)) byStore.set(key, []);
    byStore.get(key).push(message);
  }
  await Promise.all([...byStore.values()].map(async (messages) => {
    for (const message of messages) {
      await handle(message);
      await heartbeat();
    }
  }));
}

await consumer.run({
  partitionsConsumedConcurrently: partitions,
  autoCommitInterval: 1000,
  ...(settings.order === 'store' ? { eachBatch } : { eachMessage: ({ message }) => handle(message) }),
});
await Promise.race([joined, sleep(60_000).then(() => Promise.reject(new Error('did not join its group in 60 s')))]);
ready();
onStop(async () => {
  await consumer.disconnect();
  agent.destroy();
  await pool.end();
});

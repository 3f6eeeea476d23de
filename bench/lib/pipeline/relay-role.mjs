// Role 2 of bench/pipeline-ceiling.mjs: the outbox relay (kafkajs + pg). One connection, one
// loop: in a transaction it reads up to `batch` outbox rows in order (FOR UPDATE SKIP LOCKED),
// produces them to the topic keyed by store (acks=-1, one request for the batch), deletes them
// and commits. A full batch is followed at once by the next; an empty read by a pause of
// `pollMs` (the relay is a process of its own: no in-process wake-up after a commit).
// Round trips: `BEGIN; SELECT …` and `DELETE …; COMMIT` are one each (simple queries, inlined).
//   settings: { databaseUrl, schema, brokers, topic, batch, pollMs, lifetimeSeconds }
import { createRequire } from 'node:module';
import { roleKit, sleep } from './role-kit.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('pg');
const { Kafka, logLevel, Partitioners } = require('kafkajs');

const { settings, ready, onStop, fail } = roleKit('role 2 (relay)');
const { schema, topic } = settings;
const batch = Math.max(1, Math.floor(settings.batch));
const db = new Client({ connectionString: settings.databaseUrl });
db.on('error', fail);
const kafka = new Kafka({ brokers: [settings.brokers], clientId: 'ceiling-relay', logLevel: logLevel.ERROR });
const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, allowAutoTopicCreation: false });
await Promise.all([db.connect(), producer.connect()]);

const read = `BEGIN; SELECT position, store, payload::text AS payload FROM ${schema}.outbox ORDER BY position LIMIT ${batch} FOR UPDATE SKIP LOCKED`;
let stopping = false;

async function relay() {
  const deadline = Date.now() + settings.lifetimeSeconds * 1000;
  while (!stopping && Date.now() < deadline) {
    const results = await db.query(read);
    const { rows } = results[1];
    if (rows.length === 0) {
      await db.query('COMMIT');
      await sleep(settings.pollMs);
      continue;
    }
    await producer.send({ topic, acks: -1, messages: rows.map((row) => ({ key: String(row.store), value: row.payload })) });
    // Positions are bigints from PostgreSQL itself: safe to inline.
    await db.query(`DELETE FROM ${schema}.outbox WHERE position = ANY('{${rows.map((row) => row.position).join(',')}}'::bigint[]); COMMIT`);
  }
}

const running = relay().catch((error) => (stopping ? undefined : fail(error)));
ready();
onStop(async () => {
  stopping = true;
  await Promise.race([running, sleep(3000)]);
  await Promise.allSettled([producer.disconnect(), db.end()]);
});

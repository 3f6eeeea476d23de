// Role 1 of bench/pipeline-ceiling.mjs: an HTTPS server (node:https + pg) whose POST /events
// commits the event's row and its outbox row in one transaction, then answers 202. The two
// inserts are one statement (a data-modifying WITH), prepared once: one round trip and one
// commit (fsync) per request, the least this design's write can cost.
//   settings: { databaseUrl, schema, certFile, keyFile, pool, lifetimeSeconds }
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { createRequire } from 'node:module';
import { roleKit } from './role-kit.mjs';

const require = createRequire(import.meta.url);
const { Pool } = require('pg');

const { settings, ready, onStop, log } = roleKit('role 1 (https + pg)');
const { schema } = settings;
const pool = new Pool({ connectionString: settings.databaseUrl, max: settings.pool });
pool.on('error', (error) => log(`idle connection failed: ${error.message}`));
const commit = {
  name: 'commit-event',
  text: `WITH event AS (INSERT INTO ${schema}.events (id, store, payload) VALUES ($1, $2, $3) RETURNING id, store, payload)
         INSERT INTO ${schema}.outbox (event_id, store, payload) SELECT id, store, payload FROM event`,
};
const MAX_BODY = 64 * 1024;

const server = createServer({ cert: readFileSync(settings.certFile), key: readFileSync(settings.keyFile) }, (request, response) => {
  const answer = (status) => response.writeHead(status, { 'content-type': 'application/json' }).end('{}');
  if (request.method !== 'POST' || request.url !== '/events') {
    request.resume();
    return answer(404);
  }
  const chunks = [];
  let size = 0;
  request.on('data', (chunk) => {
    size += chunk.length;
    if (size <= MAX_BODY) chunks.push(chunk);
  });
  request.on('end', async () => {
    try {
      if (size > MAX_BODY) return answer(413);
      const body = Buffer.concat(chunks).toString('utf8');
      const { id, store } = JSON.parse(body);
      await pool.query({ ...commit, values: [id, store, body] });
      answer(202);
    } catch (error) {
      log(`request failed: ${error.message}`);
      answer(500);
    }
  });
});
server.keepAliveTimeout = 60_000;
server.headersTimeout = 65_000;
// A connection of the pool opened before the first request, so the first ones do not pay for it.
await pool.query('SELECT 1');
server.listen(0, '127.0.0.1', () => ready({ port: server.address().port }));
onStop(async () => {
  server.closeAllConnections();
  server.close();
  await pool.end();
});

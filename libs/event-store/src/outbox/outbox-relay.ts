import { Logger } from '@nestjs/common';
import { escapeLiteral, Pool, type PoolClient, type QueryResult } from 'pg';
import { Partitioners, type Kafka, type Producer } from 'kafkajs';
import { Counter, Histogram } from 'prom-client';
import type { EventEnvelope } from '@trilha/contracts';
import { SpanStatusCode, type Span } from '@opentelemetry/api';
import { ATTR_ID_LOJA, startSpanFrom, traceparentOf } from '@trilha/observability';
import type { ServiceDatabase } from '../database';

interface OutboxRow {
  position: string;
  topic: string;
  message_key: string;
  envelope: EventEnvelope;
  created_at: Date;
}

const BATCH = 500;
/** The fallback for commits no local `wake` announces (another process's, a lost wake-up). */
const POLL_MS = 1000;
/** How soon to try again while another replica's relay drains: our rows may be behind its snapshot. */
const BUSY_RETRY_MS = 10;
const MAX_BACKOFF_MS = 5000;

const published = new Counter({ name: 'trilha_outbox_published_total', help: 'Messages relayed from the outbox to Kafka', labelNames: ['topic'] });
const relayLag = new Histogram({
  name: 'trilha_outbox_relay_lag_seconds',
  help: 'Time from the outbox write to Kafka acknowledging the message',
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
});

/** How a drain ended: the outbox was empty, or another relay holds it. */
type Drained = 'drained' | 'busy';

/**
 * Publishes the outbox to Kafka. The event store wakes it after every commit that wrote to the
 * outbox; commits arriving while it drains make it drain again at once, so under load each
 * batch carries everything committed meanwhile. It also polls, as a fallback. Rows are deleted
 * only in the transaction that saw Kafka acknowledge them, so a crash at any point re-publishes
 * rather than loses (consumers de-duplicate with their inbox).
 *
 * It has a connection of its own, so a busy service pool never delays it. Several replicas of a
 * service each run a relay; a transaction-level advisory lock lets one drain at a time, which
 * keeps every key's messages in outbox order. (Row locks with SKIP LOCKED would let two relays
 * publish neighbouring batches of one key out of order.)
 */
export class OutboxRelay {
  private readonly logger = new Logger(OutboxRelay.name);
  private readonly pool: Pool;
  private readonly producer: Producer;
  /** The producer has connected; kafkajs reconnects it by itself from then on. */
  private connected = false;
  private running = false;
  /** A wake-up came since the current drain began. */
  private woken = false;
  private endPause?: () => void;
  private loop?: Promise<void>;
  /** Starts the drain's transaction, takes the outbox lock if free and reads a batch under it. */
  private readonly beginAndRead: string;

  constructor(
    kafka: Kafka,
    /** The service's database and schema: whose outbox this relay drains. */
    database: Pick<ServiceDatabase, 'url' | 'schema'>,
  ) {
    // The batch is read by a statement of its own, after the lock: its snapshot then holds
    // everything the previous holder committed, deletes included.
    this.beginAndRead = `BEGIN;
      SELECT set_config('trilha.outbox_locked', pg_try_advisory_xact_lock(hashtext(${escapeLiteral(`${database.schema}.outbox`)}))::text, true) AS locked;
      SELECT * FROM outbox WHERE current_setting('trilha.outbox_locked')::boolean ORDER BY position LIMIT ${BATCH}`;
    // A pool of one: it replaces its connection by itself after a database restart. Its commits
    // only delete what was published, so they do not wait for the WAL's flush
    // (`synchronous_commit=off`): a delete a database crash loses publishes its rows again, and
    // the consumers' inbox absorbs them; a relay that waited for every flush would pay a disk
    // flush for each batch, one an event at a low rate.
    this.pool = new Pool({ connectionString: database.url, max: 1, options: `-c search_path=${database.schema} -c synchronous_commit=off` });
    const connectionLost = (error: Error) => this.logger.warn(`outbox relay connection lost: ${error.message}`);
    // Idle, the pool hears the error; checked out, the connection itself must.
    this.pool.on('error', connectionLost);
    this.pool.on('connect', (client) => client.on('error', connectionLost));
    // One request in flight keeps each partition's order through retries. Not the idempotent
    // producer: it needs unlimited retries, and a relay must give up, roll back and try again
    // later; the rare duplicate a retry makes is absorbed by the consumers' inbox.
    this.producer = kafka.producer({ maxInFlightRequests: 1, allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner });
  }

  /**
   * Starts relaying, without waiting for Kafka: the producer connects in the relay's loop, with
   * its back-off, so a service starts while Kafka is unreachable and its outbox keeps what it
   * writes until Kafka is back.
   */
  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
    await this.pool.end();
    await this.producer.disconnect();
  }

  /** New rows were committed to the outbox. */
  wake(): void {
    this.woken = true;
    this.endPause?.();
  }

  private async run(): Promise<void> {
    let backoff = 100;
    while (this.running) {
      let drained: Drained;
      try {
        if (!this.connected) {
          await this.producer.connect();
          this.connected = true;
        }
        drained = await this.drain();
        backoff = 100;
      } catch (error) {
        this.logger.error(`outbox relay failed, retrying in ${backoff} ms: ${(error as Error).message}`);
        await this.pause(backoff);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
        continue;
      }
      if (drained === 'busy') await this.pause(BUSY_RETRY_MS);
      else if (!this.woken) await this.pause(POLL_MS);
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.endPause = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.endPause = done;
    });
  }

  /**
   * Publishes batches while there are any, each in its own transaction, one round trip apiece
   * under load: the transaction's start, its lock and the batch travel in one message, and the
   * delete and commit of a batch with the next one's start (statements without parameters can
   * share a message, PostgreSQL's simple protocol). Each round trip is a loopback wake-up on
   * both sides, and the relay runs about once for every command that publishes.
   */
  private async drain(): Promise<Drained> {
    const client = await this.pool.connect();
    let failure: Error | undefined;
    try {
      let rows = await this.read(client, this.beginAndRead);
      if (rows === 'busy') return 'busy';
      for (;;) {
        if (rows.length === 0) {
          await client.query('COMMIT');
          return 'drained';
        }
        await this.publish(rows);
        // Positions are bigints from our own table: safe to write into the statement.
        const remove = `DELETE FROM outbox WHERE position = ANY('{${rows.map((row) => row.position).join(',')}}'::bigint[]); COMMIT`;
        const more = rows.length === BATCH || this.woken;
        const sent = rows;
        if (more) rows = await this.read(client, `${remove}; ${this.beginAndRead}`);
        else await client.query(remove);
        this.recordPublished(sent);
        if (!more) return 'drained';
        if (rows === 'busy') return 'busy';
      }
    } catch (error) {
      failure = error as Error;
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      // A failed connection is destroyed rather than reused.
      client.release(failure);
    }
  }

  /**
   * Sends `sql`, which ends with `beginAndRead`, and returns the batch it read, or 'busy' (its
   * transaction rolled back) when another relay holds the outbox. Wake-ups from here on are
   * for commits the read may not have seen.
   */
  private async read(client: PoolClient, sql: string): Promise<OutboxRow[] | 'busy'> {
    this.woken = false;
    const results = (await client.query(sql)) as unknown as QueryResult[];
    const [lock, batch] = results.slice(-2) as [QueryResult<{ locked: string }>, QueryResult<OutboxRow>];
    if (lock.rows[0].locked === 'true') return batch.rows;
    await client.query('ROLLBACK');
    return 'busy';
  }

  private recordPublished(rows: OutboxRow[]): void {
    const now = Date.now();
    for (const row of rows) {
      published.inc({ topic: row.topic });
      relayLag.observe((now - row.created_at.getTime()) / 1000);
    }
  }

  /**
   * Sends a batch. Each message is sent inside a producer span of its own, a child of the
   * command that wrote it (the stored `traceparent`); the message's `traceparent` header is that
   * span's, so the consumer's span is its child.
   */
  private async publish(rows: OutboxRow[]): Promise<void> {
    const spans = rows.map((row) => startSpanFrom(`send ${row.topic}`, row.envelope.traceparent, {
      kind: 'producer',
      attributes: {
        'messaging.system': 'kafka',
        'messaging.operation.type': 'send',
        'messaging.destination.name': row.topic,
        'messaging.kafka.message.key': row.message_key,
        'messaging.message.id': row.envelope.id,
        'messaging.batch.message_count': rows.length,
        [ATTR_ID_LOJA]: row.envelope.idLoja,
      },
    }));
    const byTopic = new Map<string, { row: OutboxRow; span: Span }[]>();
    rows.forEach((row, index) => byTopic.set(row.topic, [...(byTopic.get(row.topic) ?? []), { row, span: spans[index] }]));
    try {
      const sent = await this.producer.sendBatch({
        acks: -1,
        topicMessages: [...byTopic].map(([topic, messages]) => ({
          topic,
          messages: messages.map(({ row, span }) => {
            const traceparent = traceparentOf(span) ?? row.envelope.traceparent;
            return {
              key: row.message_key,
              value: JSON.stringify(row.envelope),
              headers: { 'event-id': row.envelope.id, 'event-type': row.envelope.type, ...(traceparent && { traceparent }) },
            };
          }),
        })),
      });
      // Where each message landed is known when its topic's messages all went to one partition
      // (a store's messages always do); the consumer's span says it in every case.
      for (const [topic, messages] of byTopic) {
        const partitions = sent.filter((result) => result.topicName === topic);
        if (partitions.length !== 1 || partitions[0].baseOffset === undefined) continue;
        const { partition, baseOffset } = partitions[0];
        messages.forEach(({ span }, index) => span.setAttributes({ 'messaging.destination.partition.id': String(partition), 'messaging.kafka.offset': Number(baseOffset) + index }));
      }
    } catch (error) {
      for (const span of spans) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      throw error;
    } finally {
      for (const span of spans) span.end();
    }
  }
}

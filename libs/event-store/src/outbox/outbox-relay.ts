import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { Partitioners, type Kafka, type Producer } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { Counter, Histogram } from 'prom-client';
import type { EventEnvelope } from '@trilha/contracts';
import { withSpanFrom } from '@trilha/observability';
import { outboxChannel } from '../event-store';

interface OutboxRow {
  position: string;
  topic: string;
  message_key: string;
  envelope: EventEnvelope;
  created_at: Date;
}

const BATCH = 500;
const POLL_MS = 1000;
const MAX_BACKOFF_MS = 5000;

const published = new Counter({ name: 'trilha_outbox_published_total', help: 'Messages relayed from the outbox to Kafka', labelNames: ['topic'] });
const relayLag = new Histogram({
  name: 'trilha_outbox_relay_lag_seconds',
  help: 'Time from the outbox write to Kafka acknowledging the message',
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
});

/**
 * Publishes the outbox to Kafka. Woken by NOTIFY at every commit that wrote to the outbox,
 * and polling as a fallback. Rows are deleted only in the transaction that saw Kafka
 * acknowledge them, so a crash at any point re-publishes rather than loses (consumers
 * de-duplicate with their inbox).
 *
 * Several replicas of a service each run a relay; a transaction-level advisory lock lets one
 * drain at a time, which keeps every key's messages in outbox order. (Row locks with SKIP
 * LOCKED would let two relays publish neighbouring batches of one key out of order.)
 */
export class OutboxRelay {
  private readonly logger = new Logger(OutboxRelay.name);
  private producer?: Producer;
  private listener?: Client;
  private running = false;
  private wake?: () => void;
  private loop?: Promise<void>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly kafka: Kafka,
    private readonly databaseUrl: string,
    /** The service's schema: whose outbox this relay drains. */
    private readonly schema: string,
  ) {}

  async start(): Promise<void> {
    // One request in flight keeps each partition's order through retries. Not the idempotent
    // producer: it needs unlimited retries, and a relay must give up, roll back and try again
    // later; the rare duplicate a retry makes is absorbed by the consumers' inbox.
    this.producer = this.kafka.producer({ maxInFlightRequests: 1, allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner });
    await this.producer.connect();
    this.running = true;
    await this.listen();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    await this.listener?.end().catch(() => undefined);
    await this.producer?.disconnect();
  }

  /** A dedicated connection for LISTEN; it reconnects by itself after a database restart. */
  private async listen(): Promise<void> {
    const client = new Client({ connectionString: this.databaseUrl });
    client.on('notification', () => this.wake?.());
    client.on('error', (error) => this.logger.warn(`outbox listener lost: ${error.message}`));
    client.on('end', () => {
      if (this.running) setTimeout(() => this.listen().catch(() => undefined), 1000);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${outboxChannel(this.schema)}`);
      this.listener = client;
      this.wake?.();
    } catch (error) {
      this.logger.warn(`outbox listener cannot connect: ${(error as Error).message}`);
      await client.end().catch(() => undefined);
      if (this.running) setTimeout(() => this.listen().catch(() => undefined), 1000);
    }
  }

  private async run(): Promise<void> {
    let backoff = 100;
    while (this.running) {
      try {
        const relayed = await this.drainBatch();
        backoff = 100;
        if (relayed === BATCH) continue;
      } catch (error) {
        this.logger.error(`outbox relay failed, retrying in ${backoff} ms: ${(error as Error).message}`);
        await this.pause(backoff);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
        continue;
      }
      await this.pause(POLL_MS);
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }

  /** Publishes up to one batch; returns how many rows it relayed. */
  private async drainBatch(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const [{ locked }] = await manager.query(`SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked`, [`${this.schema}.outbox`]);
      if (!locked) return 0;
      const rows: OutboxRow[] = await manager.query(`SELECT * FROM outbox ORDER BY position LIMIT $1`, [BATCH]);
      if (rows.length === 0) return 0;
      await this.publish(rows);
      await manager.query(`DELETE FROM outbox WHERE position = ANY($1::bigint[])`, [rows.map((row) => row.position)]);
      const now = Date.now();
      for (const row of rows) {
        published.inc({ topic: row.topic });
        relayLag.observe((now - row.created_at.getTime()) / 1000);
      }
      return rows.length;
    });
  }

  private async publish(rows: OutboxRow[]): Promise<void> {
    if (!this.producer) throw new Error('relay not started');
    const producer = this.producer;
    const byTopic = new Map<string, OutboxRow[]>();
    for (const row of rows) byTopic.set(row.topic, [...(byTopic.get(row.topic) ?? []), row]);
    const first = rows[0].envelope;
    await withSpanFrom(`publish ${[...byTopic.keys()].join(',')}`, first.traceparent, 'producer', { 'messaging.batch.message_count': rows.length }, () =>
      producer.sendBatch({
        acks: -1,
        topicMessages: [...byTopic].map(([topic, topicRows]) => ({
          topic,
          messages: topicRows.map((row) => ({
            key: row.message_key,
            value: JSON.stringify(row.envelope),
            headers: {
              'event-id': row.envelope.id,
              'event-type': row.envelope.type,
              ...(row.envelope.traceparent && { traceparent: row.envelope.traceparent }),
            },
          })),
        })),
      }),
    );
  }
}

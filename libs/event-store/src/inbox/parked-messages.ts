import { Logger } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import type { Kafka, KafkaMessage } from 'kafkajs';
import type { DataSource, EntityManager } from 'typeorm';

/** A consumed Kafka message, as the consumer read it. */
export interface ConsumedMessage {
  topic: string;
  partition: number;
  message: Pick<KafkaMessage, 'offset' | 'key' | 'headers' | 'value'>;
}

/** A parked message as `main.js parked list` shows it. */
export interface ParkedMessage {
  id: string;
  consumer: string;
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  headers: Record<string, string>;
  value: Buffer | null;
  reason: string;
  traceId: string | null;
  parkedAt: Date;
  replayedAt: Date | null;
}

/**
 * The header a replayed message carries: the consumer it is replayed for. Every other consumer of
 * the topic passes it over, having handled (or parked) the original already.
 */
export const REPLAY_FOR_HEADER = 'trilha-replay-for';

/** Whether a message is for `consumer`: every message is, but a replay only for the consumer that parked it. */
export function isForConsumer(message: Pick<KafkaMessage, 'headers'>, consumer: string): boolean {
  const replayFor = message.headers?.[REPLAY_FOR_HEADER];
  return replayFor === undefined || String(replayFor) === consumer;
}

/** The longest wait between a consumer's tries, at handling a message and at parking it. */
export const MAX_BACKOFF_MS = 5000;

const parkedTotal = new Counter({ name: 'trilha_messages_parked_total', help: 'Kafka messages parked because they could not be handled', labelNames: ['consumer', 'topic'] });

/** The databases the waiting-messages gauge counts in: the one of each ParkedMessages (a service has one). */
const countedIn = new Set<DataSource>();
new Gauge({
  name: 'trilha_parked_messages',
  help: 'Parked Kafka messages not replayed yet, per consumer',
  labelNames: ['consumer'],
  async collect() {
    this.reset();
    for (const dataSource of countedIn) {
      const rows: { consumer: string; waiting: number }[] = await dataSource
        .query(`SELECT consumer, count(*)::int AS waiting FROM parked_messages WHERE replayed_at IS NULL GROUP BY consumer`)
        .catch(() => []);
      for (const { consumer, waiting } of rows) this.inc({ consumer }, waiting);
    }
  },
});

/** The trace id of a W3C `traceparent`, if the value is one. */
export function traceIdOf(traceparent: string | undefined): string | null {
  return /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/.exec(traceparent ?? '')?.[1] ?? null;
}

/** Header values as text. jsonb cannot hold U+0000: it becomes U+FFFD (the value itself is kept as bytes). */
function headerTexts(headers: KafkaMessage['headers']): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) texts[name] = String(first).replace(/\0/g, '\uFFFD');
  }
  return texts;
}

function bytes(value: unknown): Buffer | null {
  if (value === null || value === undefined) return null;
  if (Buffer.isBuffer(value)) return value;
  // Nest's Kafka transport hands over a JSON value already parsed.
  return Buffer.from(typeof value === 'string' ? value : JSON.stringify(value), 'utf8');
}

/** The parked messages of one service's schema. */
export class ParkedMessages {
  private readonly logger = new Logger(ParkedMessages.name);

  constructor(private readonly dataSource: DataSource) {
    countedIn.add(dataSource);
  }

  /**
   * Keeps a message the consumer gives up on, and says so in an error log line with the message's
   * trace id. Returns its id (that of its first parking, if Kafka delivered it again).
   */
  async park(consumer: string, consumed: ConsumedMessage, reason: string): Promise<string> {
    const headers = headerTexts(consumed.message.headers);
    const traceId = traceIdOf(headers.traceparent);
    const key = consumed.message.key === null || consumed.message.key === undefined ? null : String(consumed.message.key).replace(/\0/g, '\uFFFD');
    const [row] = await this.dataSource.query(
      `INSERT INTO parked_messages (consumer, topic, partition, "offset", message_key, headers, value, reason, trace_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (consumer, topic, partition, "offset") DO UPDATE SET reason = EXCLUDED.reason
       RETURNING id`,
      [consumer, consumed.topic, consumed.partition, consumed.message.offset, key, headers, bytes(consumed.message.value), reason.replace(/\0/g, '\uFFFD'), traceId],
    );
    parkedTotal.inc({ consumer, topic: consumed.topic });
    const id = String(row.id);
    this.logger.error({ msg: 'parked message', consumer, topic: consumed.topic, partition: consumed.partition, offset: consumed.message.offset, parkedId: id, reason, ...(traceId && { traceId }) });
    return id;
  }

  /**
   * Parks a message, retrying with back-off while the database does not answer: the consumer
   * returns, and Kafka may commit the message's offset, only once the message is kept. Gives up
   * (rethrowing) only when `keepTrying` says the consumer is stopping.
   */
  async parkUntilKept(consumer: string, consumed: ConsumedMessage, reason: string, keepTrying: () => boolean, firstBackoffMs = 100): Promise<string> {
    const where = { consumer, topic: consumed.topic, partition: consumed.partition, offset: consumed.message.offset };
    for (let backoff = firstBackoffMs; ; backoff = Math.min(backoff * 2, MAX_BACKOFF_MS)) {
      try {
        return await this.park(consumer, consumed, reason);
      } catch (error) {
        if (!keepTrying()) throw error;
        this.logger.warn({ msg: `parking a message failed, retrying in ${backoff} ms`, ...where, error: (error as Error).message });
        await new Promise((resolve) => setTimeout(resolve, backoff));
      }
    }
  }

  /** Messages waiting for a replay (or, with `all`, every parked message), oldest first. */
  async list(options: { all?: boolean; ids?: string[]; forUpdate?: boolean } = {}, manager: EntityManager = this.dataSource.manager): Promise<ParkedMessage[]> {
    const rows: Record<string, unknown>[] = await manager.query(
      `SELECT * FROM parked_messages
       WHERE ($1 OR replayed_at IS NULL) AND ($2::bigint[] IS NULL OR id = ANY($2::bigint[]))
       ORDER BY id${options.forUpdate ? ' FOR UPDATE' : ''}`,
      [options.all ?? false, options.ids ?? null],
    );
    return rows.map((row) => ({
      id: String(row.id),
      consumer: row.consumer as string,
      topic: row.topic as string,
      partition: row.partition as number,
      offset: String(row.offset),
      key: row.message_key as string | null,
      headers: row.headers as Record<string, string>,
      value: row.value as Buffer | null,
      reason: row.reason as string,
      traceId: row.trace_id as string | null,
      parkedAt: row.parked_at as Date,
      replayedAt: row.replayed_at as Date | null,
    }));
  }

  /**
   * Hands messages back to the consumers that parked them: each is produced again, as it was
   * read, to its topic and partition (after the messages behind it), with a header naming its
   * consumer, and marked replayed. A message that fails again is parked again, as a new row.
   * Without ids, every message waiting is replayed.
   */
  async replay(kafka: Kafka, ids: string[]): Promise<ParkedMessage[]> {
    const producer = kafka.producer({ allowAutoTopicCreation: false, idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    try {
      return await this.dataSource.transaction(async (manager) => {
        // Locked: an operator replaying the same messages at the same time waits, then finds
        // them replayed, so no message is produced twice.
        const waiting = await this.list({ ids: ids.length > 0 ? ids : undefined, forUpdate: true }, manager);
        const unknown = ids.filter((id) => !waiting.some((message) => message.id === id));
        if (unknown.length > 0) throw new Error(`no parked message waiting with id ${unknown.join(', ')}`);
        for (const message of waiting) {
          await producer.send({
            topic: message.topic,
            acks: -1,
            messages: [{ partition: message.partition, key: message.key, value: message.value, headers: { ...message.headers, [REPLAY_FOR_HEADER]: message.consumer } }],
          });
          await manager.query(`UPDATE parked_messages SET replayed_at = now() WHERE id = $1`, [message.id]);
        }
        return waiting;
      });
    } finally {
      await producer.disconnect();
    }
  }
}

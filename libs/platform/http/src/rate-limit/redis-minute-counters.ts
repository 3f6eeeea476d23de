import type Redis from 'ioredis';
import { LRUCache } from 'lru-cache';

/**
 * Adds a replica's hits to a counter and, when they created it, sets it to expire: one command,
 * one reply, the minute's total.
 */
const ADD = `local hits = redis.call('INCRBY', KEYS[1], ARGV[1])
if hits == tonumber(ARGV[1]) then redis.call('PEXPIREAT', KEYS[1], ARGV[2]) end
return hits`;

/** How long a replica gathers the hits of a counter far from its limit before adding them to Redis. */
export const SEND_EVERY_MS = 50;
/** Within this share of its limit, every hit of a counter is added to Redis at once. */
export const NEAR_THE_LIMIT = 0.2;

type CountingRedis = Redis & { trilhaAdd(counter: string, hits: number, expireAtMs: number): Promise<number> };

/** Where a minute's hits of a key are counted: `hit` counts one and answers the minute's total. */
export interface MinuteCounters {
  hit(counter: string, expireAtMs: number, limit: number): Promise<number> | number;
}

/** A counter as this replica knows it. */
interface SharedCounter {
  expireAtMs: number;
  /** The total in Redis at its last answer, every hit that answer covered included. */
  known: number;
  knownAtMs: number;
  /** This replica's hits that no answer covered yet: on their way to Redis, or waiting. */
  unsent: number;
  /** Of `unsent`, those on their way. */
  onTheirWay: number;
  /** The other replicas' hits a millisecond, between Redis's last two answers. */
  othersPerMs: number;
}

/**
 * The counters every gateway replica shares, in Redis. A hit far from its limit is answered
 * from Redis's last total of its counter and this replica's hits since, and added to Redis
 * within `SEND_EVERY_MS`, with the other counters' (one script call each, which ioredis
 * auto-pipelines into one write). Any other hit — a counter's first in this replica, one that
 * may be within `NEAR_THE_LIMIT` of the limit — goes to Redis at once with the hits waiting
 * beside it, and is answered from Redis's total. Each answer brings in the other replicas' hits,
 * and their pace: a hit may be near the limit when the total, with the hits the others make at
 * that pace since the last answer and while they gather theirs, is. So a request waits for Redis
 * once per counter and minute, and near a limit every replica counts in Redis itself, however
 * fast a store's requests come. A store goes past its limit only if the other replicas' pace
 * jumps while this replica has no fresh answer, and then by the hits this replica answers before
 * its next send is answered (about `SEND_EVERY_MS`).
 *
 * When adding fails, the hits stay counted here and are sent again; until a send succeeds, every
 * hit fails with its error, so the storage counts it locally and checks Redis
 * (`CalendarMinuteStorage`). Each counter is kept until its minute's end, at most `max` of them,
 * the least recently hit dropped first (with any hits it had not sent), so a flood of distinct
 * clients cannot grow the process without bound.
 */
export class RedisMinuteCounters implements MinuteCounters {
  private readonly redis: CountingRedis;
  private readonly counters: LRUCache<string, SharedCounter>;
  /** The counters with hits to send. */
  private readonly waiting = new Set<string>();
  private timer?: NodeJS.Timeout;
  /** Why the last send failed, until one succeeds. */
  private failure?: Error;
  private readonly now: () => number;

  constructor(redis: Redis, { max = 100_000, now = Date.now }: { max?: number; now?: () => number } = {}) {
    redis.defineCommand('trilhaAdd', { numberOfKeys: 1, lua: ADD });
    this.redis = redis as CountingRedis;
    this.now = now;
    this.counters = new LRUCache<string, SharedCounter>({ max, ttlResolution: 0, perf: { now } });
  }

  async hit(counter: string, expireAtMs: number, limit: number): Promise<number> {
    if (this.failure) {
      await this.send();
      if (this.failure) throw this.failure;
    }
    const now = this.now();
    let known = this.counters.get(counter);
    if (known === undefined) {
      known = { expireAtMs, known: 0, knownAtMs: -Infinity, unsent: 0, onTheirWay: 0, othersPerMs: 0 };
      this.counters.set(counter, known, { ttl: Math.max(1, expireAtMs - now) });
    }
    known.unsent += 1;
    const total = known.known + known.unsent;
    const sinceKnownMs = now - known.knownAtMs;
    const othersAtMost = known.othersPerMs * (sinceKnownMs + SEND_EVERY_MS);
    if (total + othersAtMost <= limit * (1 - NEAR_THE_LIMIT)) {
      this.waiting.add(counter);
      this.sendSoon();
      return total;
    }
    return this.add(counter, known).catch((error: unknown) => {
      // This hit is counted locally instead; the others sent with it are kept, to be sent again.
      known.unsent -= 1;
      throw error;
    });
  }

  /** Adds every hit not yet on its way to Redis now (at shutdown, so no count is lost). */
  async send(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const sending: Promise<unknown>[] = [];
    for (const counter of this.waiting) {
      this.waiting.delete(counter);
      // A counter whose minute ended is gone: nothing counts its hits any more.
      const known = this.counters.get(counter);
      if (known && known.unsent > known.onTheirWay) sending.push(this.add(counter, known));
    }
    const outcomes = await Promise.allSettled(sending);
    const failed = outcomes.find((outcome) => outcome.status === 'rejected');
    this.failure = failed && (failed.reason as Error);
  }

  /** Sends a counter's waiting hits; answers the total Redis has with them. */
  private async add(counter: string, known: SharedCounter): Promise<number> {
    const hits = known.unsent - known.onTheirWay;
    known.onTheirWay += hits;
    try {
      const total = await this.redis.trilhaAdd(counter, hits, known.expireAtMs);
      known.unsent -= hits;
      // Answers come in the order of their commands: this one covers every earlier hit, and what
      // it adds to the last one's total beyond these hits is the other replicas'.
      const now = this.now();
      if (Number.isFinite(known.knownAtMs)) known.othersPerMs = Math.max(0, total - known.known - hits) / Math.max(1, now - known.knownAtMs);
      known.known = total;
      known.knownAtMs = now;
      return total;
    } catch (error) {
      this.failure = error as Error;
      // Kept, to be sent again.
      this.waiting.add(counter);
      throw error;
    } finally {
      known.onTheirWay -= hits;
    }
  }

  private sendSoon(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => void this.send(), SEND_EVERY_MS);
    this.timer.unref();
  }
}

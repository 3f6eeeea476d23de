import type Redis from 'ioredis';

/** Counts a hit and, on the minute's first, sets the counter to expire: one command, one reply. */
const HIT = `local hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('PEXPIREAT', KEYS[1], ARGV[1]) end
return hits`;

type CountingRedis = Redis & { trilhaHit(counter: string, expireAtMs: number): Promise<number> };

/** Where a minute's hits of a key are counted: `hit` counts one and answers the minute's total. */
export interface MinuteCounters {
  hit(counter: string, expireAtMs: number): Promise<number> | number;
}

/**
 * The counters every gateway replica shares, in Redis. Each hit is one script call (EVALSHA),
 * which a client with auto-pipelining batches with the other requests' hits.
 */
export class RedisMinuteCounters implements MinuteCounters {
  private readonly redis: CountingRedis;

  constructor(redis: Redis) {
    redis.defineCommand('trilhaHit', { numberOfKeys: 1, lua: HIT });
    this.redis = redis as CountingRedis;
  }

  hit(counter: string, expireAtMs: number): Promise<number> {
    return this.redis.trilhaHit(counter, expireAtMs);
  }
}

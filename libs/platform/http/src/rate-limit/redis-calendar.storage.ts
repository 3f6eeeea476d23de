import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import type Redis from 'ioredis';
import { calendarMinute } from './calendar-minute';

/** Counts a hit and, on the minute's first, sets the counter to expire: one command, one reply. */
const HIT = `local hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('PEXPIREAT', KEYS[1], ARGV[1]) end
return hits`;

type CountingRedis = Redis & { trilhaHit(counter: string, expireAtMs: number): Promise<number> };

/**
 * Throttler storage shared by every gateway replica: one Redis counter per key and calendar
 * minute (CONTRACT.md section 0), expiring just after its minute ends. The throttler's own
 * `ttl` is ignored: windows are calendar minutes, not sliding ones. Each hit is one script
 * call (EVALSHA), which a client with auto-pipelining batches with the other requests' hits.
 */
export class RedisCalendarMinuteStorage implements ThrottlerStorage {
  private readonly redis: CountingRedis;

  constructor(redis: Redis) {
    redis.defineCommand('trilhaHit', { numberOfKeys: 1, lua: HIT });
    this.redis = redis as CountingRedis;
  }

  async increment(key: string, _ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const { minute, endMs, secondsToNext } = calendarMinute(Date.now());
    const totalHits = await this.redis.trilhaHit(`trilha:rl:${key}:${minute}`, endMs + 5_000);
    const isBlocked = totalHits > limit;
    return { totalHits, timeToExpire: secondsToNext, isBlocked, timeToBlockExpire: isBlocked ? secondsToNext : 0 };
  }
}

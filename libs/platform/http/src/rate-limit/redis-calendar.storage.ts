import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import type Redis from 'ioredis';
import { calendarMinute } from './calendar-minute';

/**
 * Throttler storage shared by every gateway replica: one Redis counter per key and calendar
 * minute (CONTRACT.md section 0), expiring just after its minute ends. The throttler's own
 * `ttl` is ignored: windows are calendar minutes, not sliding ones.
 */
export class RedisCalendarMinuteStorage implements ThrottlerStorage {
  constructor(private readonly redis: Redis) {}

  async increment(key: string, _ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const now = Date.now();
    const { minute, endMs, secondsToNext } = calendarMinute(now);
    const counter = `trilha:rl:${key}:${minute}`;
    const results = await this.redis.multi().incr(counter).pexpireat(counter, endMs + 5_000).exec();
    const [incrError, totalHits] = results?.[0] ?? [new Error('no reply from Redis'), 0];
    if (incrError) throw incrError;
    const isBlocked = (totalHits as number) > limit;
    return { totalHits: totalHits as number, timeToExpire: secondsToNext, isBlocked, timeToBlockExpire: isBlocked ? secondsToNext : 0 };
  }
}

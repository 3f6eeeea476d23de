import type { LoggerService } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import { Counter } from 'prom-client';
import { calendarMinute } from './calendar-minute';
import { LocalMinuteCounters } from './local-minute-counters';
import type { MinuteCounters } from './redis-minute-counters';
import type { RedisReachability } from './redis-reachability';

const countedLocally = new Counter({
  name: 'trilha_rate_limit_counted_locally_total',
  help: 'Requests this gateway replica counted against its rate limits on its own, because Redis did not answer',
});

/** How often, at most, a replica that counts on its own says so in its log. */
const WARN_EVERY_MS = 60_000;

/**
 * Throttler storage: one counter per key and calendar minute (docs/API.md section 0), shared by
 * every gateway replica in Redis and expiring just after its minute ends. The throttler's own
 * `ttl` is ignored: windows are calendar minutes, not sliding ones.
 *
 * While Redis does not answer, each replica counts in its own memory, with the same limits: a
 * store can then make up to its limit on every replica, and requests keep being answered. The
 * replica warns once a minute, counts those requests in `trilha_rate_limit_counted_locally_total`,
 * and goes back to the shared counters when Redis answers again (`RedisReachability`).
 */
export class CalendarMinuteStorage implements ThrottlerStorage {
  private readonly local: LocalMinuteCounters;
  private lastWarningMs = -Infinity;
  private localSinceWarning = 0;
  private countingLocally = false;

  constructor(
    private readonly shared: MinuteCounters,
    private readonly reachability: Pick<RedisReachability, 'reachable' | 'reason' | 'check'>,
    private readonly logger: Pick<LoggerService, 'warn' | 'log'>,
    private readonly now: () => number = Date.now,
  ) {
    this.local = new LocalMinuteCounters(undefined, now);
  }

  async increment(key: string, _ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const { minute, endMs, secondsToNext } = calendarMinute(this.now());
    const totalHits = await this.hit(`trilha:rl:${key}:${minute}`, endMs + 5_000, limit);
    const isBlocked = totalHits > limit;
    return { totalHits, timeToExpire: secondsToNext, isBlocked, timeToBlockExpire: isBlocked ? secondsToNext : 0 };
  }

  private async hit(counter: string, expireAtMs: number, limit: number): Promise<number> {
    let reason = this.reachability.reason;
    if (this.reachability.reachable) {
      try {
        const hits = await this.shared.hit(counter, expireAtMs, limit);
        if (this.countingLocally) this.backToShared();
        return hits;
      } catch (error) {
        // A late answer may be this busy process's own delay rather than Redis's: this request
        // is counted locally, and the next ones too only if a PING confirms Redis does not answer.
        reason = (error as Error).message;
        this.reachability.check();
      }
    }
    this.countLocally(reason);
    return this.local.hit(counter, expireAtMs);
  }

  private countLocally(reason: string): void {
    countedLocally.inc();
    this.countingLocally = true;
    this.localSinceWarning += 1;
    if (this.now() - this.lastWarningMs < WARN_EVERY_MS) return;
    this.logger.warn(
      `Redis unreachable (${reason}): rate limits are counted by this replica alone, ` +
        `with the same limits; ${this.localSinceWarning} request(s) counted locally since the last warning`,
    );
    this.lastWarningMs = this.now();
    this.localSinceWarning = 0;
  }

  private backToShared(): void {
    this.logger.log(`Redis answers again: rate limits are shared by every replica again (${this.localSinceWarning} request(s) counted locally since the last warning)`);
    this.countingLocally = false;
    this.localSinceWarning = 0;
    this.lastWarningMs = -Infinity;
  }
}

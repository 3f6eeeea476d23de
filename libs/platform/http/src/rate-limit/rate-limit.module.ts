import { Inject, Logger, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import Redis from 'ioredis';
import { CalendarMinuteStorage } from './calendar-minute.storage';
import { RateLimitGuard } from './rate-limit.guard';
import { RedisMinuteCounters } from './redis-minute-counters';
import { RedisReachability } from './redis-reachability';

const REDIS = Symbol('RATE_LIMIT_REDIS');
const REACHABILITY = Symbol('RATE_LIMIT_REDIS_REACHABILITY');
const COUNTERS = Symbol('RATE_LIMIT_COUNTERS');

/**
 * How long a request waits for Redis to count it. Redis answers in well under a millisecond;
 * past this it is hung or overloaded, and the request is counted locally instead.
 */
const REDIS_TIMEOUT_MS = 100;

class RedisLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(REACHABILITY) private readonly reachability: RedisReachability,
    @Inject(COUNTERS) private readonly counters: RedisMinuteCounters,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    this.reachability.stop();
    // The hits counted here and not yet added go to Redis before the connection closes.
    if (this.reachability.reachable) await this.counters.send();
    // QUIT times out like any command when Redis hangs; the connection is then dropped.
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

export interface RateLimitOptions {
  redisUrl: string;
  /** Requests per minute of an endpoint that sets no limit of its own. */
  defaultLimitPerMinute: number;
}

/**
 * Rate limits shared through Redis (`RedisMinuteCounters`: each replica adds its hits every
 * 50 ms), counted by each replica on its own while Redis does not answer (`CalendarMinuteStorage`). Import after the authentication module: guards run in
 * registration order, and the tracker needs the authenticated store.
 */
@Module({})
export class RateLimitModule {
  static register(options: RateLimitOptions): DynamicModule {
    const redis = new Redis(options.redisUrl, {
      // No command waits for Redis longer than this, nor for a connection at all (no offline
      // queue): while Redis is down or hung, requests are counted locally at once.
      commandTimeout: REDIS_TIMEOUT_MS,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      // Reconnects for ever, waiting 100 ms more after each failed attempt, up to 2 s.
      retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
      // Auto-pipelining sends the counters of requests that arrive together in one write.
      enableAutoPipelining: true,
    });
    // Connection errors are reported by RedisReachability and the storage's warning.
    redis.on('error', () => undefined);
    // Unreachable only when two PINGs in a row fail: a lone PING that times out may have been
    // held up by this process's own busy event loop. A closed connection fails both at once.
    const reachability = new RedisReachability(() => redis.ping().catch(() => redis.ping()));
    reachability.start();
    redis.on('ready', () => reachability.check());
    const counters = new RedisMinuteCounters(redis);
    return {
      module: RateLimitModule,
      imports: [
        ThrottlerModule.forRoot({
          throttlers: [{ name: 'default', ttl: 60_000, limit: options.defaultLimitPerMinute }],
          storage: new CalendarMinuteStorage(counters, reachability, new Logger('RateLimit')),
        }),
      ],
      providers: [
        { provide: REDIS, useValue: redis },
        { provide: REACHABILITY, useValue: reachability },
        { provide: COUNTERS, useValue: counters },
        RedisLifecycle,
        { provide: APP_GUARD, useClass: RateLimitGuard },
      ],
      exports: [REDIS],
    };
  }
}

export { REDIS as RATE_LIMIT_REDIS };

import { Module, type DynamicModule, type OnApplicationShutdown, Inject } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import Redis from 'ioredis';
import { RateLimitGuard } from './rate-limit.guard';
import { RedisCalendarMinuteStorage } from './redis-calendar.storage';

const REDIS = Symbol('RATE_LIMIT_REDIS');

class RedisLifecycle implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}
  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}

export interface RateLimitOptions {
  redisUrl: string;
  /** Requests per minute of an endpoint that sets no limit of its own. */
  defaultLimitPerMinute: number;
}

/**
 * Rate limits shared through Redis. Import after the authentication module: guards run in
 * registration order, and the tracker needs the authenticated store.
 */
@Module({})
export class RateLimitModule {
  static register(options: RateLimitOptions): DynamicModule {
    // Auto-pipelining sends the counters of requests that arrive together in one write.
    const redis = new Redis(options.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true, enableAutoPipelining: true });
    return {
      module: RateLimitModule,
      imports: [
        ThrottlerModule.forRoot({
          throttlers: [{ name: 'default', ttl: 60_000, limit: options.defaultLimitPerMinute }],
          storage: new RedisCalendarMinuteStorage(redis),
        }),
      ],
      providers: [{ provide: REDIS, useValue: redis }, RedisLifecycle, { provide: APP_GUARD, useClass: RateLimitGuard }],
      exports: [REDIS],
    };
  }
}

export { REDIS as RATE_LIMIT_REDIS };

import { LRUCache } from 'lru-cache';
import type { MinuteCounters } from './redis-minute-counters';

/**
 * One replica's own counters, for while Redis does not answer. Each lives until its minute's
 * end; at most `max` are kept, the least recently hit dropped first, so a flood of distinct
 * clients cannot grow the process without bound.
 */
export class LocalMinuteCounters implements MinuteCounters {
  private readonly counters: LRUCache<string, number>;

  constructor(max = 100_000, private readonly now: () => number = Date.now) {
    this.counters = new LRUCache<string, number>({ max, ttlResolution: 0, perf: { now } });
  }

  hit(counter: string, expireAtMs: number): number {
    const hits = (this.counters.get(counter) ?? 0) + 1;
    this.counters.set(counter, hits, { ttl: Math.max(1, expireAtMs - this.now()) });
    return hits;
  }
}

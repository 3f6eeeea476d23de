import { register } from 'prom-client';
import { CalendarMinuteStorage } from './calendar-minute.storage';
import type { MinuteCounters } from './redis-minute-counters';

const countedLocally = async () => (await register.getSingleMetric('trilha_rate_limit_counted_locally_total')!.get()).values[0]?.value ?? 0;

/** Redis as the storage sees it: counters that answer, or fail, as the test says. */
class FakeRedis implements MinuteCounters {
  answering = true;
  readonly counters = new Map<string, number>();
  /** What RedisReachability's PING would find, known at once. */
  readonly reachability = {
    reachable: true,
    reason: '',
    check: jest.fn(() => {
      this.reachability.reachable = this.answering;
      if (!this.answering) this.reachability.reason = 'Command timed out';
    }),
  };

  async hit(counter: string): Promise<number> {
    if (!this.answering) throw new Error('Command timed out');
    const hits = (this.counters.get(counter) ?? 0) + 1;
    this.counters.set(counter, hits);
    return hits;
  }
}

describe('CalendarMinuteStorage', () => {
  let clock: number;
  let redis: FakeRedis;
  let logger: { warn: jest.Mock; log: jest.Mock };
  let storage: CalendarMinuteStorage;
  const hit = (key = 'rota:loja:7:default', limit = 3) => storage.increment(key, 60_000, limit);
  const hits = async (count: number, key?: string) => {
    const records = [];
    for (let index = 0; index < count; index += 1) records.push(await hit(key));
    return records;
  };

  beforeEach(() => {
    clock = Date.parse('2026-11-24T10:00:05.000Z');
    redis = new FakeRedis();
    logger = { warn: jest.fn(), log: jest.fn() };
    storage = new CalendarMinuteStorage(redis, redis.reachability, logger, () => clock);
  });

  it('counts in Redis while it answers, and refuses past the limit until the next minute', async () => {
    const records = await hits(4);
    expect(records.map((record) => record.isBlocked)).toEqual([false, false, false, true]);
    expect(records[3]).toMatchObject({ totalHits: 4, timeToExpire: 55, timeToBlockExpire: 55 });
    expect([...redis.counters.values()]).toEqual([4]);
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('counts locally, with the same limit, once Redis fails, and stops asking it', async () => {
    const before = await countedLocally();
    redis.answering = false;
    const records = await hits(4);
    expect(records.map((record) => record.totalHits)).toEqual([1, 2, 3, 4]);
    expect(records.map((record) => record.isBlocked)).toEqual([false, false, false, true]);
    expect(redis.reachability.reachable).toBe(false);
    expect(await countedLocally()).toBe(before + 4);

    redis.answering = true;
    await hit();
    expect(redis.counters.size).toBe(0);
  });

  it('counts a request locally when its command fails, but keeps on Redis if the PING answers', async () => {
    redis.answering = false;
    const failedOnce = jest.spyOn(redis, 'hit').mockImplementationOnce(async () => {
      redis.answering = true;
      throw new Error('Command timed out');
    });
    expect((await hit()).totalHits).toBe(1);
    expect(redis.reachability.check).toHaveBeenCalledTimes(1);
    expect(redis.reachability.reachable).toBe(true);
    failedOnce.mockRestore();
    await hits(2);
    expect([...redis.counters.values()]).toEqual([2]);
    expect(logger.warn.mock.calls[0][0]).toMatch(/^Redis unreachable \(Command timed out\)/);
  });

  it('keeps the local counters per key and per calendar minute', async () => {
    redis.answering = false;
    await hits(3);
    expect((await hit('rota:loja:8:default')).totalHits).toBe(1);
    clock = Date.parse('2026-11-24T10:01:00.000Z');
    expect(await hit()).toMatchObject({ totalHits: 1, isBlocked: false, timeToExpire: 60 });
  });

  it('warns at most once a minute while it counts locally, saying how many requests it counted', async () => {
    redis.answering = false;
    await hits(2);
    clock += 30_000;
    await hit();
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0][0]).toMatch(/^Redis unreachable \(Command timed out\): .* 1 request\(s\) counted locally/);
    clock += 30_000;
    await hit();
    expect(logger.warn).toHaveBeenCalledTimes(2);
    expect(logger.warn.mock.calls[1][0]).toMatch(/ 3 request\(s\) counted locally/);
  });

  it('goes back to the Redis counters when Redis answers again, and says so once', async () => {
    redis.answering = false;
    await hits(2);
    redis.answering = true;
    redis.reachability.reachable = true;
    expect((await hit()).totalHits).toBe(1);
    await hit();
    expect([...redis.counters.values()]).toEqual([2]);
    expect(logger.log).toHaveBeenCalledTimes(1);
    expect(logger.log.mock.calls[0][0]).toMatch(/^Redis answers again/);
  });
});

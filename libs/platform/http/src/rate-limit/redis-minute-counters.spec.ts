import type Redis from 'ioredis';
import { RedisMinuteCounters } from './redis-minute-counters';

/** Redis's counters in memory, with its script call, the calls it got, and a switch to fail them. */
function fakeRedis() {
  const values = new Map<string, number>();
  const calls: [string, number][] = [];
  const redis = {
    failing: undefined as Error | undefined,
    values,
    calls,
    defineCommand: () => undefined,
    async trilhaAdd(counter: string, hits: number): Promise<number> {
      calls.push([counter, hits]);
      if (redis.failing) throw redis.failing;
      values.set(counter, (values.get(counter) ?? 0) + hits);
      return values.get(counter)!;
    },
  };
  return redis;
}

const MINUTE_END = 60_000;
const LIMIT = 100;
const counting = (redis: ReturnType<typeof fakeRedis>, now = () => 1_000, max?: number) => new RedisMinuteCounters(redis as unknown as Redis, { now, max });

describe('RedisMinuteCounters', () => {
  it('asks Redis on a counter’s first hit, counts the next ones itself, and adds them together', async () => {
    const redis = fakeRedis();
    const counters = counting(redis);
    const totals = [];
    for (let index = 0; index < 5; index += 1) totals.push(await counters.hit('k', MINUTE_END, LIMIT));
    expect(totals).toEqual([1, 2, 3, 4, 5]);
    expect(redis.calls).toEqual([['k', 1]]);
    await counters.send();
    expect(redis.calls).toEqual([['k', 1], ['k', 4]]);
    expect(redis.values.get('k')).toBe(5);
  });

  it('adds every hit within the last fifth of the limit to Redis at once, with the hits waiting beside it', async () => {
    const redis = fakeRedis();
    const counters = counting(redis);
    const totals = [];
    for (let index = 0; index < 11; index += 1) totals.push(await counters.hit('k', MINUTE_END, 10));
    expect(totals).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(redis.calls).toEqual([['k', 1], ['k', 8], ['k', 1], ['k', 1]]);
  });

  it('answers from its last total however old while the other replicas are quiet', async () => {
    const redis = fakeRedis();
    let now = 1_000;
    const counters = counting(redis, () => now);
    await counters.hit('k', MINUTE_END, LIMIT);
    now += 30_000;
    expect(await counters.hit('k', MINUTE_END, LIMIT)).toBe(2);
    expect(redis.calls).toEqual([['k', 1]]);
  });

  it('asks Redis again once the other replicas’ pace since its last total may have brought the counter near the limit', async () => {
    const redis = fakeRedis();
    let now = 1_000;
    const [mine, other] = [counting(redis, () => now), counting(redis, () => now)];
    await mine.hit('k', MINUTE_END, LIMIT);
    // The other replica makes 10 hits in 100 ms, which this replica learns with its next answer.
    for (let index = 0; index < 10; index += 1) await other.hit('k', MINUTE_END, LIMIT);
    await other.send();
    now += 100;
    expect(await mine.hit('k', MINUTE_END, LIMIT)).toBe(2);
    await mine.send();
    expect(redis.calls.filter(([, hits]) => hits > 0)).toHaveLength(4);
    // At 0.1 hit a millisecond, 600 ms on (and 50 while they gather theirs) the others may have
    // made 65 more: 78 of 100 is far enough; 200 ms later, 85 more: near the limit, Redis is asked.
    now += 600;
    expect(await mine.hit('k', MINUTE_END, LIMIT)).toBe(13);
    expect(redis.calls).toHaveLength(4);
    now += 200;
    redis.values.set('k', 90);
    expect(await mine.hit('k', MINUTE_END, LIMIT)).toBe(92);
    expect(redis.calls.at(-1)).toEqual(['k', 2]);
  });

  it('learns the other replicas’ hits with each answer', async () => {
    const redis = fakeRedis();
    const [first, second] = [counting(redis), counting(redis)];
    await first.hit('k', MINUTE_END, LIMIT);
    await second.hit('k', MINUTE_END, LIMIT);
    expect(await second.hit('k', MINUTE_END, LIMIT)).toBe(3);
    await second.send();
    expect(await first.hit('k', MINUTE_END, LIMIT)).toBe(2);
    await first.send();
    expect(await first.hit('k', MINUTE_END, LIMIT)).toBe(5);
  });

  it('limits exactly across replicas that add their hits as they go: near the limit each counts in Redis', async () => {
    const redis = fakeRedis();
    const replicas = [counting(redis), counting(redis)];
    const totals = [];
    for (let index = 0; index < 121; index += 1) {
      totals.push(await replicas[index % 2].hit('k', MINUTE_END, 120));
      // Each replica's timer, every few requests.
      if (index % 4 === 3) await Promise.all(replicas.map((replica) => replica.send()));
    }
    expect(totals.filter((total) => total <= 120)).toHaveLength(120);
    expect(totals.slice(-2)).toEqual([120, 121]);
  });

  it('limits exactly across replicas whose requests come faster than they send: near the limit is judged with the others’ pace', async () => {
    const redis = fakeRedis();
    let now = 1_000;
    const replicas = [counting(redis, () => now), counting(redis, () => now)];
    const totals = [];
    for (let index = 0; index < 121; index += 1) {
      totals.push(await replicas[index % 2].hit('k', MINUTE_END, 120));
      // A request a millisecond: each replica's timer comes every 50 of them.
      now += 1;
      if (index % 50 === 49) await Promise.all(replicas.map((replica) => replica.send()));
    }
    expect(totals.filter((total) => total <= 120)).toHaveLength(120);
    expect(totals.slice(-2)).toEqual([120, 121]);
  });

  it('keeps the hits it could not add, fails every hit until a send succeeds, then adds them', async () => {
    const redis = fakeRedis();
    const counters = counting(redis);
    await counters.hit('k', MINUTE_END, LIMIT);
    await counters.hit('k', MINUTE_END, LIMIT);
    redis.failing = new Error('Command timed out');
    await counters.send();
    await expect(counters.hit('k', MINUTE_END, LIMIT)).rejects.toThrow('Command timed out');
    redis.failing = undefined;
    expect(await counters.hit('k', MINUTE_END, LIMIT)).toBe(3);
    await counters.send();
    expect(redis.values.get('k')).toBe(3);
  });

  it('fails a first hit Redis does not answer, to be counted locally, and asks again on the next', async () => {
    const redis = fakeRedis();
    const counters = counting(redis);
    redis.failing = new Error('Connection is closed.');
    await expect(counters.hit('k', MINUTE_END, LIMIT)).rejects.toThrow('Connection is closed.');
    redis.failing = undefined;
    expect(await counters.hit('k', MINUTE_END, LIMIT)).toBe(1);
    expect(redis.calls).toEqual([['k', 1], ['k', 1]]);
  });

  it('starts over with the next minute’s counter', async () => {
    const redis = fakeRedis();
    let now = 1_000;
    const counters = counting(redis, () => now);
    await counters.hit('k:1', MINUTE_END, LIMIT);
    await counters.hit('k:1', MINUTE_END, LIMIT);
    now = MINUTE_END + 1;
    // The ended minute's last hits are not sent: nothing counts them any more.
    await counters.send();
    expect(await counters.hit('k:2', 2 * MINUTE_END, LIMIT)).toBe(1);
    expect(redis.calls).toEqual([['k:1', 1], ['k:2', 1]]);
  });

  it('keeps at most `max` counters, forgetting the least recently hit, which asks Redis again', async () => {
    const redis = fakeRedis();
    const counters = counting(redis, () => 1_000, 2);
    for (const counter of ['a', 'b', 'c']) await counters.hit(counter, MINUTE_END, LIMIT);
    expect(await counters.hit('a', MINUTE_END, LIMIT)).toBe(2);
    expect(redis.calls).toEqual([['a', 1], ['b', 1], ['c', 1], ['a', 1]]);
  });
});

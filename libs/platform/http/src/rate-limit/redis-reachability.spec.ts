import { register } from 'prom-client';
import { RedisReachability } from './redis-reachability';

const gauge = async () => (await register.getSingleMetric('trilha_rate_limit_redis_reachable')!.get()).values[0]?.value;

describe('RedisReachability', () => {
  let answers: boolean;
  let reachability: RedisReachability;
  const ping = jest.fn(async () => {
    if (!answers) throw new Error('Command timed out');
    return 'PONG';
  });
  /** Lets the probe's PING settle. */
  const settle = () => jest.advanceTimersByTimeAsync(0);

  beforeEach(() => {
    jest.useFakeTimers();
    answers = true;
    ping.mockClear();
    reachability = new RedisReachability(ping, 1000);
  });

  afterEach(() => {
    reachability.stop();
    jest.useRealTimers();
  });

  it('is unreachable until the first PING answers', async () => {
    reachability.start();
    expect(reachability.reachable).toBe(false);
    expect(await gauge()).toBe(0);
    await jest.advanceTimersByTimeAsync(1000);
    expect(reachability.reachable).toBe(true);
    expect(await gauge()).toBe(1);
  });

  it('PINGs at once when asked, and is unreachable as long as the PINGs fail', async () => {
    reachability.start();
    reachability.check();
    await settle();
    expect(reachability.reachable).toBe(true);

    answers = false;
    reachability.check();
    await settle();
    expect(reachability.reachable).toBe(false);
    expect(reachability.reason).toBe('Command timed out');
    expect(await gauge()).toBe(0);
    await jest.advanceTimersByTimeAsync(1000);
    expect(reachability.reachable).toBe(false);

    answers = true;
    await jest.advanceTimersByTimeAsync(1000);
    expect(reachability.reachable).toBe(true);
    expect(await gauge()).toBe(1);
  });

  it('notices an outage by its own PING, while no request comes', async () => {
    reachability.start();
    await jest.advanceTimersByTimeAsync(1000);
    answers = false;
    await jest.advanceTimersByTimeAsync(1000);
    expect(reachability.reachable).toBe(false);
    expect(ping).toHaveBeenCalledTimes(2);
  });

  it('sends one PING at a time, however long Redis takes', async () => {
    ping.mockImplementationOnce(() => new Promise(() => undefined));
    reachability.start();
    reachability.check();
    await jest.advanceTimersByTimeAsync(3000);
    expect(ping).toHaveBeenCalledTimes(1);
  });
});

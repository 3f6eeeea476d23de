import { ConcurrencyLimit } from './concurrency-limit';

describe('ConcurrencyLimit', () => {
  it('gives each key its own places, refuses the one beyond the limit, and takes a place back once however often it is released', () => {
    const limit = new ConcurrencyLimit<number>(2);
    const primeira = limit.tryAcquire(1);
    const segunda = limit.tryAcquire(1);
    expect(primeira).toBeDefined();
    expect(segunda).toBeDefined();
    expect(limit.tryAcquire(1)).toBeUndefined();
    expect(limit.tryAcquire(2)).toBeDefined();

    primeira!();
    primeira!();
    expect(limit.tryAcquire(1)).toBeDefined();
    expect(limit.tryAcquire(1)).toBeUndefined();
  });
});

import { ConcurrencyLimit } from './concurrency-limit';

describe('ConcurrencyLimit', () => {
  it('gives each key its own places, refuses the one beyond the limit without a queue, and takes a place back once however often it is released', async () => {
    const limit = new ConcurrencyLimit<number>(2);
    const primeira = await limit.acquire(1);
    const segunda = await limit.acquire(1);
    expect(primeira).toBeDefined();
    expect(segunda).toBeDefined();
    expect(await limit.acquire(1)).toBeUndefined();
    expect(await limit.acquire(2)).toBeDefined();

    primeira!();
    primeira!();
    expect(await limit.acquire(1)).toBeDefined();
    expect(await limit.acquire(1)).toBeUndefined();
  });

  it('hands a place given back to the first caller waiting, refuses a caller the queue has no room for, and one that waited too long', async () => {
    jest.useFakeTimers();
    try {
      const limit = new ConcurrencyLimit<number>(1, { size: 2, waitMs: 1000 });
      const primeira = (await limit.acquire(1))!;
      const ordem: string[] = [];
      const segunda = limit.acquire(1).then((place) => (ordem.push('segunda'), place));
      const terceira = limit.acquire(1).then((place) => (ordem.push('terceira'), place));
      expect(await limit.acquire(1)).toBeUndefined();

      primeira();
      const lugarDaSegunda = await segunda;
      expect(lugarDaSegunda).toBeDefined();
      expect(ordem).toEqual(['segunda']);

      jest.advanceTimersByTime(1000);
      expect(await terceira).toBeUndefined();

      // The queue's room is back, and so is the key's place once the second gives it back.
      lugarDaSegunda!();
      expect(await limit.acquire(1)).toBeDefined();
    } finally {
      jest.useRealTimers();
    }
  });
});

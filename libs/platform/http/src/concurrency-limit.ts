import { HttpException } from '@nestjs/common';

/** How many callers of one key may wait for a place, and for how long. */
export interface ConcurrencyQueue {
  size: number;
  waitMs: number;
}

const NO_QUEUE: ConcurrencyQueue = { size: 0, waitMs: 0 };

interface KeyState {
  held: number;
  /** Callers waiting for a place, first come first served: each is handed the place given back. */
  waiting: (() => void)[];
}

/**
 * A bound on how much slow work each key (a store) has in flight at once, so that one store
 * cannot hold the places it shares with the others (a connection pool, a service's outbound
 * calls). Beyond its `limit`, a key's callers wait in its own queue, so a burst of one store's
 * quick requests is served in turn instead of refused; a caller the queue has no room for, or
 * that waits longer than `waitMs`, gets no place. The process keeps the counts: with several
 * replicas the bound is per replica.
 */
export class ConcurrencyLimit<Key> {
  private readonly keys = new Map<Key, KeyState>();

  constructor(
    readonly limit: number,
    private readonly queue: ConcurrencyQueue = NO_QUEUE,
  ) {}

  /** One of the key's places, as the function that gives it back (once); undefined when none came. */
  acquire(key: Key): Promise<(() => void) | undefined> {
    let state = this.keys.get(key);
    if (!state) this.keys.set(key, (state = { held: 0, waiting: [] }));
    if (state.held < this.limit) {
      state.held += 1;
      return Promise.resolve(this.placeOf(key, state));
    }
    if (state.waiting.length >= this.queue.size) return Promise.resolve(undefined);
    const keyState = state;
    return new Promise((resolve) => {
      const handOver = () => {
        clearTimeout(timer);
        resolve(this.placeOf(key, keyState));
      };
      const timer = setTimeout(() => {
        keyState.waiting.splice(keyState.waiting.indexOf(handOver), 1);
        resolve(undefined);
      }, this.queue.waitMs);
      keyState.waiting.push(handOver);
    });
  }

  /** The function that gives a place back: to the first caller waiting, or to the key's count. */
  private placeOf(key: Key, state: KeyState): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = state.waiting.shift();
      if (next) return next();
      state.held -= 1;
      if (state.held === 0) this.keys.delete(key);
    };
  }
}

/** A request refused because its store already has as many of its kind in flight as allowed: 429 with Retry-After. */
export class ConcurrencyLimitExceeded extends HttpException {
  constructor(
    detail: string,
    readonly retryAfterSeconds: number,
  ) {
    super(detail, 429);
  }
}

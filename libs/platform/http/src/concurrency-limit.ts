import { HttpException } from '@nestjs/common';

/**
 * A bound on how much slow work each key (a store) has in flight at once, so that one store
 * cannot hold the places it shares with the others (a connection pool, a service's outbound
 * calls). The process keeps the counts: with several replicas the bound is per replica.
 */
export class ConcurrencyLimit<Key> {
  private readonly inFlight = new Map<Key, number>();

  constructor(readonly limit: number) {}

  /** Takes one of the key's places: the function that gives it back (once), or undefined when the key holds them all. */
  tryAcquire(key: Key): (() => void) | undefined {
    const held = this.inFlight.get(key) ?? 0;
    if (held >= this.limit) return undefined;
    this.inFlight.set(key, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.inFlight.get(key) ?? 1) - 1;
      if (left === 0) this.inFlight.delete(key);
      else this.inFlight.set(key, left);
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

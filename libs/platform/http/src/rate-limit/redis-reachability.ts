import { Gauge } from 'prom-client';

let reachableGauge: Gauge | undefined;
/**
 * Registered by the first RedisReachability, so only a process that uses Redis (the gateway)
 * reports on it: a service without Redis would otherwise show it unreachable, and alert.
 */
const gauge = () =>
  (reachableGauge ??= new Gauge({
    name: 'trilha_rate_limit_redis_reachable',
    help: 'Whether the Redis of the shared rate-limit counters answers (1), or this replica counts on its own (0)',
  }));

/**
 * Whether the rate limits' Redis answers, as a PING says: one every `everyMs`, and one at once
 * when asked (`check`: the connection is ready, or a command failed). A PING that fails makes
 * the requests that follow count locally instead of waiting on Redis; the first that answers
 * makes them count in Redis again. It also notices an outage while no request comes. Unknown,
 * and so unreachable, until the first PING answers.
 */
export class RedisReachability {
  private answering = false;
  private lastError = 'no answer yet';
  private probing = false;
  private timer?: NodeJS.Timeout;

  constructor(private readonly ping: () => Promise<unknown>, private readonly everyMs = 1000) {
    gauge().set(0);
  }

  get reachable(): boolean {
    return this.answering;
  }

  /** Why Redis is unreachable: the last failed PING's error. */
  get reason(): string {
    return this.lastError;
  }

  start(): void {
    this.timer = setInterval(() => void this.probe(), this.everyMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** PINGs Redis now, unless a PING is already on its way. */
  check(): void {
    void this.probe();
  }

  private async probe(): Promise<void> {
    if (this.probing) return;
    this.probing = true;
    try {
      await this.ping();
      this.answering = true;
      gauge().set(1);
    } catch (error) {
      this.answering = false;
      this.lastError = (error as Error).message;
      gauge().set(0);
    } finally {
      this.probing = false;
    }
  }
}

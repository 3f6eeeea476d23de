import { Gauge } from 'prom-client';

let consumerRunning: Gauge | undefined;
/** Registered when a consumer first reports, so a service that consumes nothing (tracking) shows no consumer. */
const consumerRunningGauge = () =>
  (consumerRunning ??= new Gauge({
    name: 'trilha_kafka_consumer_running',
    help: 'Whether the service’s Kafka consumer is in its group and fetching (1) or stopped, joining or rejoining it (0)',
  }));

/**
 * Whether the service's Kafka consumer is in its group, for the code that must know: the
 * service runtime (`keepConsumerRunning`) tells it, /readyz and the metric show it, and a cache
 * fed by the consumer (the gateway's `LojaStatusCache`) trusts nothing while it is out. The
 * service serves HTTP meanwhile: its consumer joins in the background.
 *
 * "In its group" means joined and past its first fetch, so its starting offsets are resolved:
 * every event published from then on reaches it, whichever offset its group starts from.
 */
export class ConsumerMembership {
  private member = false;
  private joinCount = 0;

  get inGroup(): boolean {
    return this.member;
  }

  /** How many times the consumer (re)joined its group: a change says it may have missed events. */
  get joins(): number {
    return this.joinCount;
  }

  joined(): void {
    this.member = true;
    this.joinCount += 1;
    consumerRunningGauge().set(1);
  }

  left(): void {
    this.member = false;
    consumerRunningGauge().set(0);
  }
}

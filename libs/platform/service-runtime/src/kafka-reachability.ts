import type { Admin } from 'kafkajs';
import { Gauge } from 'prom-client';
import { withTimeout } from '@trilha/observability';

const CHECK_TIMEOUT_MS = 2000;

/**
 * Whether the service reaches Kafka, for `/readyz` and for `trilha_kafka_connected` on
 * `/metrics` (asked on every scrape). Callers share the check in flight, so probes and scrapes
 * never pile up connection attempts while Kafka is down; the admin should make one attempt per
 * check, so that the answer follows Kafka's return at the next check.
 * Returns the check, which rejects with the reason when Kafka does not answer within 2 s.
 */
export function kafkaReachability(admin: Admin): () => Promise<void> {
  let inFlight: Promise<void> | undefined;
  const reach = async () => {
    await admin.connect();
    await admin.describeCluster();
  };
  const check = () => {
    inFlight ??= reach().finally(() => (inFlight = undefined));
    return withTimeout(inFlight, CHECK_TIMEOUT_MS);
  };
  new Gauge({
    name: 'trilha_kafka_connected',
    help: 'Whether Kafka answers (1) or not (0). While 0 the service takes writes into its outbox and consumes nothing; both resume when Kafka is back',
    async collect() {
      this.set(await check().then(() => 1, () => 0));
    },
  });
  return check;
}

import { Gauge } from 'prom-client';
import type { DataSource } from 'typeorm';

/** The databases whose outbox the gauge measures: the one of each event store (a service has one). */
const measuredIn = new Set<DataSource>();

new Gauge({
  name: 'trilha_outbox_oldest_message_age_seconds',
  help: 'Age of the oldest message of the outbox not yet published to Kafka (0 when it is empty); it grows while Kafka does not take messages or the relay is stuck',
  async collect() {
    this.reset();
    for (const dataSource of measuredIn) {
      // The first row by primary key: the oldest, read from the index's first page.
      const rows: { age: number }[] = await dataSource
        .query(`SELECT COALESCE(extract(epoch FROM clock_timestamp() - (SELECT created_at FROM outbox ORDER BY position LIMIT 1)), 0)::float8 AS age`)
        .catch(() => []);
      for (const { age } of rows) this.set(age);
    }
  },
});

/** Publishes the age of the oldest unpublished message of `dataSource`'s outbox, measured at every scrape. */
export function measureOutboxAge(dataSource: DataSource): void {
  measuredIn.add(dataSource);
}

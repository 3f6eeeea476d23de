import { Gauge } from 'prom-client';
import type { DataSource } from 'typeorm';

/** The delivery service's database, whose deliveries and webhooks the gauges count at every scrape. */
let measured: DataSource | undefined;

/** What the webhooks table says at one scrape: every webhook gauge of a scrape reads one query. */
interface WebhookCounts {
  ativos: number;
  falhando: number;
  desativados: number;
}

let counting: { at: number; counts: Promise<WebhookCounts | undefined> } | undefined;

/** One count for the three webhook gauges of a scrape (asked within the same second). */
function webhookCounts(dataSource: DataSource): Promise<WebhookCounts | undefined> {
  if (!counting || Date.now() - counting.at > 1000) {
    // One row per store: a scan of a table of small rows, no larger than the stores.
    const counts = dataSource
      .query(
        `SELECT count(*) FILTER (WHERE ativo)::int AS ativos,
                count(*) FILTER (WHERE ativo AND falhas_seguidas > 0)::int AS falhando,
                count(*) FILTER (WHERE NOT ativo AND desativado_em > now() - interval '1 hour')::int AS desativados
         FROM webhooks`,
      )
      .then(([row]: WebhookCounts[]) => row, () => undefined);
    counting = { at: Date.now(), counts };
  }
  return counting.counts;
}

/** A gauge set at every scrape from the webhooks table's counts. */
function webhookGauge(name: string, help: string, of: (counts: WebhookCounts) => number): void {
  new Gauge({
    name,
    help,
    async collect() {
      this.reset();
      const counts = measured && (await webhookCounts(measured));
      if (counts) this.set(of(counts));
    },
  });
}

webhookGauge('trilha_webhooks_active', 'Stores with an active webhook', (counts) => counts.ativos);
webhookGauge(
  'trilha_webhooks_failing',
  'Active webhooks whose last attempt failed: one is a store’s endpoint; many at once are more likely our side (egress, DNS, TLS)',
  (counts) => counts.falhando,
);
webhookGauge(
  'trilha_webhooks_deactivated_last_hour',
  'Webhooks deactivated within the last hour (410 Gone, or every attempt failed for WEBHOOK_DISABLE_AFTER) and not reactivated since',
  (counts) => counts.desativados,
);

new Gauge({
  name: 'trilha_webhook_oldest_due_delivery_seconds',
  help: 'How long the oldest due delivery has waited past the time its schedule set for it (0 when none is due): deliveries wait longer than their retry schedule',
  async collect() {
    this.reset();
    // The first entry of the entregas_devidas index.
    const rows: { atraso: number }[] | undefined = await measured
      ?.query(`SELECT COALESCE(extract(epoch FROM now() - min(proxima_em)), 0)::float8 AS atraso FROM entregas WHERE proxima_em IS NOT NULL AND proxima_em <= now()`)
      .catch(() => undefined);
    for (const { atraso } of rows ?? []) this.set(atraso);
  },
});

/** Publishes the gauges of the deliveries and webhooks of `dataSource`, counted at every scrape. */
export function measureDeliveries(dataSource: DataSource): void {
  measured = dataSource;
}

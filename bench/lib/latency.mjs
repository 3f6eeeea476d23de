// Latency statistics and the report lines of a benchmark.
import { fmt } from './bench-kit.mjs';

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** "p50 …  p90 …  p99 …  max …  (n = …)" of latencies in any order. */
export const latencyLine = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `p50 ${fmt(percentile(sorted, 50))}  p90 ${fmt(percentile(sorted, 90))}  p99 ${fmt(percentile(sorted, 99))}  max ${fmt(sorted.at(-1))}  (n = ${sorted.length})`;
};

/** "200 × 2990, ECONNRESET × 10" */
export const countsLine = (counts) => [...counts].map(([what, count]) => `${what} × ${count}`).join(', ');

/** A loop's result in one line: rate, latencies, how many in how long, statuses and errors. */
export function describeResult(result) {
  const statuses = [...result.statuses].map(([status, n]) => `${status}×${n}`).join(', ');
  const errors = [...result.errors].map(([error, n]) => `${error}×${n}`).join(', ');
  return {
    rate: result.rate,
    p50: percentile(result.latencies, 50),
    p99: percentile(result.latencies, 99),
    line: `${result.rate.toFixed(0)} req/s; p50 ${fmt(percentile(result.latencies, 50))}, p90 ${fmt(percentile(result.latencies, 90))}, ` +
      `p99 ${fmt(percentile(result.latencies, 99))}, max ${fmt(result.latencies.at(-1))}; ${result.requests} requests in ${result.elapsed.toFixed(1)} s; ` +
      `status ${statuses || 'none'}${errors ? `; errors ${errors}` : ''}` +
      (result.slowest ? `; slowest 1 % sent in ${result.slowest.windows} of ${result.slowest.span} quarter-seconds (${(100 * result.slowest.busiestShare).toFixed(0)} % in the one from ${result.slowest.busiestAt} UTC)` : ''),
  };
}

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
    latencies: result.latencies,
    p50: percentile(result.latencies, 50),
    p99: percentile(result.latencies, 99),
    line: `${result.rate.toFixed(0)} req/s; p50 ${fmt(percentile(result.latencies, 50))}, p90 ${fmt(percentile(result.latencies, 90))}, ` +
      `p99 ${fmt(percentile(result.latencies, 99))}, max ${fmt(result.latencies.at(-1))}; ${result.requests} requests in ${result.elapsed.toFixed(1)} s; ` +
      `status ${statuses || 'none'}${errors ? `; errors ${errors}` : ''}` +
      (result.slowest ? `; slowest 1 % sent in ${result.slowest.windows} of ${result.slowest.span} quarter-seconds (${(100 * result.slowest.busiestShare).toFixed(0)} % in the one from ${result.slowest.busiestAt} UTC)` : ''),
  };
}

/** A ratio to a ceiling: three places below 1, two below 10, one above. */
export const times = (ratio) => `${ratio.toFixed(ratio < 1 ? 3 : ratio < 10 ? 2 : 1)} ×`;

/** "685 / 5064 req/s = 0.135 ×": a figure of the platform beside its ceiling's, and their ratio. */
export const ratioLine = (platform, ceiling, unit) => `${platform.toFixed(0)} / ${ceiling.toFixed(0)} ${unit} = ${times(platform / ceiling)}`;

/** "p50 137 / 13 ms = 10.5 ×, p99 600 / 46 ms = 13.0 ×": two sets of latencies (any order) at p50 and p99. */
export function latencyRatios(platform, ceiling) {
  const [a, b] = [platform, ceiling].map((values) => [...values].sort((x, y) => x - y));
  return [50, 99].map((p) => {
    const [x, y] = [percentile(a, p), percentile(b, p)];
    return `p${p} ${x.toFixed(1)} / ${y.toFixed(1)} ms = ${times(x / y)}`;
  }).join(', ');
}

/**
 * Arrivals per second between the 10th and the 90th percentile of their times (start-up and tail
 * left out), with the per-second min, median and max in that window.
 */
export function steadyRate(times) {
  const sorted = [...times].sort((a, b) => a - b);
  const [from, to] = [percentile(sorted, 10), percentile(sorted, 90)];
  const inside = sorted.filter((at) => at >= from && at <= to);
  const perSecond = new Map();
  for (const at of inside) perSecond.set(Math.floor(at / 1000), (perSecond.get(Math.floor(at / 1000)) ?? 0) + 1);
  const seconds = [...perSecond.values()].sort((a, b) => a - b);
  return {
    rate: inside.length / ((to - from) / 1000),
    line: `per second: min ${seconds[0]}, median ${percentile(seconds, 50)}, max ${seconds.at(-1)}; first → last ${((sorted.at(-1) - sorted[0]) / 1000).toFixed(1)} s`,
  };
}

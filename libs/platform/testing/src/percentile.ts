/** The nearest-rank percentile `p` (0–100) of `samples`: the smallest sample that `p` % of them do not exceed. */
export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

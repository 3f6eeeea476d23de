/** The value of one sample on a service's ops port `/metrics` (0 while it has none), e.g. `name{label="x"}`. */
export async function metricValue(opsPort: number, sample: string): Promise<number> {
  const metrics = await (await fetch(`http://127.0.0.1:${opsPort}/metrics`)).text();
  const line = metrics.split('\n').find((candidate) => candidate.startsWith(`${sample} `));
  return Number(line?.slice(sample.length + 1) ?? 0);
}

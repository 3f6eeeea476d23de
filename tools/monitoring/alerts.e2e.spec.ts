/**
 * The alerts and dashboards against the running stack: every metric a rule or a panel reads is on
 * the services' /metrics (a renamed metric would otherwise blind an alert without a sound), the
 * stack's Prometheus evaluates the chart's rules, and an alert caused for real fires there.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { TOPICS } from '@trilha/contracts';
import { apiClient, createStore, eventPublisher, eventually, metricValue, testStack } from '@trilha/testing';

const stack = testStack();
const root = resolve(__dirname, '../..');

interface RuleFile {
  groups: { rules: { alert?: string; record?: string; expr: string }[] }[];
}
const rules = parse(readFileSync(join(root, 'helm/trilha/files/prometheus-rules.yaml'), 'utf8')) as RuleFile;
const ruleList = rules.groups.flatMap((group) => group.rules);

interface Panel {
  title: string;
  targets?: { expr: string }[];
}
const dashboardsDir = join(root, 'helm/trilha/files/dashboards');
const panelQueries = readdirSync(dashboardsDir).flatMap((file) =>
  (JSON.parse(readFileSync(join(dashboardsDir, file), 'utf8')) as { panels: Panel[] }).panels.flatMap((panel) => (panel.targets ?? []).map(({ expr }) => ({ where: `${file}: ${panel.title}`, expr }))),
);
const queries = [...ruleList.map((rule) => ({ where: `rule ${rule.alert ?? rule.record}`, expr: rule.expr })), ...panelQueries];

/** The metric names a query reads: the services' own (trilha_), and the process and Node.js metrics of prom-client. */
const metricNames = (expr: string) => [...expr.matchAll(/\b(?:trilha|process|nodejs)_[a-z0-9_]+\b/g)].map(([name]) => name);
/** The recording rules' names (level:metric:operations), which Prometheus computes from the others. */
const recorded = (expr: string) => [...expr.matchAll(/\btrilha:[a-z0-9_:]+/g)].map(([name]) => name);

/** Every series name the four services expose, histograms with their _bucket, _count and _sum. */
async function exposedNames(): Promise<Set<string>> {
  const names = new Set<string>();
  for (const port of Object.values(stack.ports.ops)) {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
      names.add(name);
      if (type === 'histogram' || type === 'summary') for (const suffix of ['_bucket', '_count', '_sum']) names.add(`${name}${suffix}`);
    }
  }
  return names;
}

interface PrometheusAlert {
  labels: Record<string, string>;
  state: 'pending' | 'firing';
}

async function prometheus<T>(path: string): Promise<T> {
  const body = (await (await fetch(`${stack.prometheusUrl}${path}`)).json()) as { status: string; data: T };
  if (body.status !== 'success') throw new Error(`Prometheus ${path}: ${JSON.stringify(body)}`);
  return body.data;
}

describe('the alerts and dashboards on the running stack', () => {
  it('read only metrics the services expose', async () => {
    const exposed = await exposedNames();
    const used = queries.flatMap(({ where, expr }) => metricNames(expr).map((name) => ({ where, name })));
    expect(used.length).toBeGreaterThan(50);
    expect(used.filter(({ name }) => !exposed.has(name))).toEqual([]);
    const records = new Set(ruleList.flatMap((rule) => rule.record ?? []));
    expect(queries.flatMap(({ where, expr }) => recorded(expr).filter((name) => !records.has(name)).map((name) => ({ where, name })))).toEqual([]);
  });

  it('measure every API request by its route template, never its URL', async () => {
    const loja = await createStore();
    const idAtendimento = `at-metricas-${Date.now()}`;
    const sample = 'trilha_api_request_duration_seconds_count{route="/v1/atendimentos/{idAtendimento}",method="GET",status_class="4xx"}';
    const before = await metricValue(stack.ports.ops['api-gateway'], sample);
    expect((await apiClient(stack.baseUrl, stack.caFile)('GET', `/atendimentos/${idAtendimento}`, { token: loja.token })).status).toBe(404);
    expect(await metricValue(stack.ports.ops['api-gateway'], sample)).toBe(before + 1);
    expect(await (await fetch(`http://127.0.0.1:${stack.ports.ops['api-gateway']}/metrics`)).text()).not.toContain(idAtendimento);
  });

  it('are the rules the stack’s Prometheus evaluates, on every service it scrapes', async () => {
    const loaded = await prometheus<{ groups: { rules: { name: string }[] }[] }>('/api/v1/rules');
    expect(loaded.groups.flatMap((group) => group.rules.map((rule) => rule.name)).sort()).toEqual(ruleList.map((rule) => rule.alert ?? rule.record).sort());
    const targets = await eventually('Prometheus scraping the four services', async () => {
      const { activeTargets } = await prometheus<{ activeTargets: { labels: { job: string }; health: string }[] }>('/api/v1/targets');
      return activeTargets.every((target) => target.health === 'up') && activeTargets.length === 4 ? activeTargets : undefined;
    });
    expect(targets.map((target) => target.labels.job).sort()).toEqual(Object.keys(stack.ports.ops).sort());
  });

  it('read a dependency only from the services that have it: only the gateway reports on Redis', async () => {
    // A service without Redis reporting it unreachable would fire TrilhaRedisUnreachable forever.
    const series = await eventually('the gateway’s Redis gauge scraped', async () => {
      const { result } = await prometheus<{ result: { metric: { job: string } }[] }>('/api/v1/query?query=trilha_rate_limit_redis_reachable');
      return result.length > 0 ? result : undefined;
    });
    expect(series.map(({ metric }) => metric.job)).toEqual(['api-gateway']);
  });

  it('fire for real: a message the atendimento service cannot read is parked, and TrilhaMessagesParked fires in Prometheus', async () => {
    const consumer = 'atendimento.rastreio-pedidos';
    const parkedAlert = async () =>
      (await prometheus<{ alerts: PrometheusAlert[] }>('/api/v1/alerts')).alerts.find((alert) => alert.labels.alertname === 'TrilhaMessagesParked' && alert.labels.consumer === consumer);
    // Nothing of this consumer is parked yet: the alert this test sees is the one it causes.
    expect(await parkedAlert()).toBeUndefined();
    const kafka = eventPublisher(stack);
    try {
      await kafka.publishRaw(TOPICS.tracking, [{ key: '1', value: '{"não é": JSON' }]);
    } finally {
      await kafka.close();
    }
    const firing = await eventually('TrilhaMessagesParked firing', async () => {
      const alert = await parkedAlert();
      return alert?.state === 'firing' ? alert : undefined;
    }, 30_000, 250);
    expect(firing.labels).toEqual({ alertname: 'TrilhaMessagesParked', severity: 'warning', job: 'atendimento-service', consumer });
  });
});

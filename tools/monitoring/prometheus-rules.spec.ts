/**
 * Trilha's alerts as they ship: the umbrella chart's PrometheusRule (helm/trilha/files/prometheus-rules.yaml)
 * passes `promtool check rules`, and `promtool test rules` shows each alert fire when it should and
 * stay quiet when it should not (prometheus-rules.test.yaml, prometheus-slo.test.yaml); every alert
 * has a severity, words for a person and a runbook section; the local stack's Prometheus loads the
 * same rules, rendered the same way; the dashboards render as ConfigMaps the Grafana sidecar reads.
 * promtool is Debian's `prometheus` package, which `npm test` and `npm start` install.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse, stringify } from 'yaml';
import { chartsForTestFile, named, ofKind } from '../helm/rendered-charts.fixture';

const root = resolve(__dirname, '../..');
const RUNBOOK_URL = 'https://runbooks.example/RUNBOOKS.md';
const MONITORING_API = 'monitoring.coreos.com/v1/PrometheusRule';
const TEST_FILES = ['prometheus-rules.test.yaml', 'prometheus-slo.test.yaml'];

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
interface RuleFile {
  groups: { name: string; rules: Rule[] }[];
}

const { charts, scenario } = chartsForTestFile();
let scratch: string;
beforeAll(() => (scratch = mkdtempSync(join(tmpdir(), 'trilha-rules-'))));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The rules of the PrometheusRule the umbrella chart renders on a cluster with the Prometheus Operator (a copy each call). */
function chartRules(): RuleFile {
  const objects = scenario('trilha', 'ci/minimal-values.yaml', { set: { 'monitoring.runbookUrl': RUNBOOK_URL }, apiVersions: [MONITORING_API] });
  return structuredClone(named<{ spec: RuleFile }>(objects, 'PrometheusRule', 'trilha-alerts').spec);
}

const alerts = (rules: RuleFile) => rules.groups.flatMap((group) => group.rules).filter((rule): rule is Rule & { alert: string } => rule.alert !== undefined);

function promtool(args: string[]): { status: number; output: string } {
  const run = spawnSync('promtool', args, { encoding: 'utf8', timeout: 120_000 });
  if (run.error) throw new Error(`promtool: ${run.error.message} (apt-get install prometheus)`);
  return { status: run.status ?? 1, output: `${run.stdout}${run.stderr}` };
}

describe('the alerts of the umbrella chart', () => {
  it('pass promtool check rules as rendered', () => {
    const file = join(scratch, 'rendered.yaml');
    writeFileSync(file, stringify(chartRules()));
    const check = promtool(['check', 'rules', file]);
    expect(check).toEqual({ status: 0, output: expect.stringMatching(/SUCCESS: \d+ rules found/) });
  });

  it('fire when they should and stay quiet when they should not (promtool test rules)', () => {
    // The annotations are this file's other tests' to check: promtool would want each test to repeat them.
    const rules = chartRules();
    for (const rule of alerts(rules)) delete rule.annotations;
    const rulesFile = join(scratch, 'rules-without-annotations.yaml');
    writeFileSync(rulesFile, stringify(rules));
    for (const testFile of TEST_FILES) {
      const copy = join(scratch, testFile);
      writeFileSync(copy, readFileSync(join(__dirname, testFile), 'utf8').replace('RENDERED_RULES', rulesFile));
      const test = promtool(['test', 'rules', copy]);
      if (test.status !== 0) throw new Error(`promtool test rules ${testFile}:\n${test.output}`);
    }
  });

  it('each have a promtool test where they fire and one where they stay quiet', () => {
    const cases = TEST_FILES.flatMap((testFile) => (parse(readFileSync(join(__dirname, testFile), 'utf8')) as { tests: { alert_rule_test?: { alertname: string; exp_alerts: unknown[] }[] }[] }).tests)
      .flatMap((test) => test.alert_rule_test ?? []);
    for (const { alert } of alerts(chartRules())) {
      expect({ alert, fires: cases.some((c) => c.alertname === alert && c.exp_alerts.length > 0), staysQuiet: cases.some((c) => c.alertname === alert && c.exp_alerts.length === 0) })
        .toEqual({ alert, fires: true, staysQuiet: true });
    }
  });

  it('each say how bad, what happened in plain words, and link to their section of docs/RUNBOOKS.md', () => {
    const anchors = new Set([...readFileSync(join(root, 'docs/RUNBOOKS.md'), 'utf8').matchAll(/^#{2,3} (.+)$/gm)].map(([, heading]) => `#${heading.trim().toLowerCase()}`));
    const rendered = alerts(chartRules());
    // One section per alert, and no section of an alert that is gone.
    expect(new Set(rendered.map(({ alert }) => `#${alert.toLowerCase()}`))).toEqual(new Set([...anchors].filter((anchor) => anchor.startsWith('#trilha'))));
    for (const { alert, labels, annotations } of rendered) {
      expect({ alert, severity: labels?.severity, summary: annotations?.summary, description: annotations?.description, runbook: annotations?.runbook_url }).toEqual({
        alert,
        severity: expect.stringMatching(/^(critical|warning)$/),
        summary: expect.stringMatching(/^[A-Z].{10,}[^.]$/),
        description: expect.stringMatching(/.{20,}/),
        runbook: `${RUNBOOK_URL}#${alert.toLowerCase()}`,
      });
      expect(anchors).toContain(`#${alert.toLowerCase()}`);
    }
  });

  it('are what the local stack’s Prometheus loads, rendered the same way', () => {
    const local = spawnSync(process.execPath, ['--input-type=module', '-e', `
      import { renderedRules } from ${JSON.stringify(join(root, 'deploy/local/prometheus.mjs'))};
      process.stdout.write(JSON.stringify(renderedRules(${JSON.stringify(RUNBOOK_URL)})));`], { encoding: 'utf8' });
    expect(local.stderr).toBe('');
    expect(JSON.parse(local.stdout)).toEqual(chartRules());
  });

  it('render as a PrometheusRule when the cluster serves its API or the values ask for it, never when they refuse it', () => {
    const prometheusRules = (set: Record<string, string>, apiVersions: string[] = []) =>
      ofKind(charts().render('trilha', { values: ['ci/minimal-values.yaml'], set, apiVersions }), 'PrometheusRule').length;
    expect(prometheusRules({})).toBe(0);
    expect(prometheusRules({}, [MONITORING_API])).toBe(1);
    expect(prometheusRules({ 'monitoring.prometheusRule.enabled': 'true' })).toBe(1);
    expect(prometheusRules({ 'monitoring.prometheusRule.enabled': 'false' }, [MONITORING_API])).toBe(0);
  });
});

describe('the dashboards of the umbrella chart', () => {
  const files = readdirSync(join(root, 'helm/trilha/files/dashboards')).sort();

  it('are off by default', () => {
    expect(ofKind(scenario('trilha', 'ci/minimal-values.yaml'), 'ConfigMap').filter((map) => map.metadata.name.includes('-dashboard-'))).toEqual([]);
  });

  it('render one ConfigMap each, with the label the Grafana sidecar reads: the overview and one per service', () => {
    expect(files).toEqual(['trilha-api-gateway.json', 'trilha-atendimento-service.json', 'trilha-delivery-service.json', 'trilha-overview.json', 'trilha-tracking-service.json']);
    const maps = ofKind<{ data: Record<string, string> }>(scenario('trilha', 'ci/production-values.yaml'), 'ConfigMap').filter((map) => map.metadata.name.includes('-dashboard-'));
    expect(maps.map((map) => Object.keys(map.data)).flat().sort()).toEqual(files);
    for (const map of maps) {
      expect(map.metadata.labels).toMatchObject({ grafana_dashboard: '1' });
      expect(map.metadata.annotations).toEqual({ grafana_folder: 'Trilha' });
      const [[file, json]] = Object.entries(map.data);
      const dashboard = JSON.parse(json) as { uid: string; title: string; panels: unknown[] };
      expect(dashboard).toMatchObject({ uid: file.replace(/\.json$/, ''), title: expect.stringMatching(/^Trilha \//), panels: expect.arrayContaining([expect.anything()]) });
    }
  });
});

// Prometheus for the local stack: scrapes the services' ops ports and evaluates Trilha's alerts,
// the rules of the umbrella chart (helm/trilha/files/prometheus-rules.yaml) rendered as the chart
// renders them, so an engineer sees on a laptop the alerts a cluster would fire. Debian's
// `prometheus` package provides the binary (infra.mjs installs it); its data stays under dataDir.
//
//   const prometheus = await startPrometheus({ dataDir, port, targets: { 'api-gateway': 18180, … }, log })
//   prometheus.url, await prometheus.stop()

import fs from 'node:fs';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { launchUntilReady, stopProc, which } from './processes.mjs';

const root = path.resolve(import.meta.dirname, '../..');
/** Trilha's alerts and recording rules: the one list the chart and the local stack load. */
export const RULES_FILE = path.join(root, 'helm/trilha/files/prometheus-rules.yaml');
const START_TIMEOUT_MS = 60_000;

/**
 * The rules as helm/trilha/templates/prometheusrule.yaml renders them: each alert's runbook_url,
 * an anchor of docs/RUNBOOKS.md, follows `runbookUrl` (tools/monitoring/prometheus-rules.spec.ts
 * holds the two renderings equal).
 */
export function renderedRules(runbookUrl) {
  const rules = parse(fs.readFileSync(RULES_FILE, 'utf8'));
  for (const group of rules.groups) {
    for (const rule of group.rules) if (rule.annotations) rule.annotations.runbook_url = `${runbookUrl}${rule.annotations.runbook_url}`;
  }
  return rules;
}

/**
 * Starts Prometheus on `host`:`port`, scraping each of `targets` (job name → ops port on `host`)
 * every `intervalSeconds` and evaluating the rules as often; its log goes to dataDir/prometheus.log.
 * Returns its URL and `stop()`.
 */
export async function startPrometheus({ dataDir, port, targets, host = '127.0.0.1', intervalSeconds = 15, log = console.error }) {
  const binary = which('prometheus');
  if (!binary) throw new Error('prometheus: not found (apt-get install prometheus)');
  fs.mkdirSync(dataDir, { recursive: true });
  const rulesFile = path.join(dataDir, 'rules.yml');
  fs.writeFileSync(rulesFile, stringify(renderedRules(`file://${path.join(root, 'docs/RUNBOOKS.md')}`)));
  const configFile = path.join(dataDir, 'prometheus.yml');
  const interval = `${intervalSeconds}s`;
  fs.writeFileSync(configFile, stringify({
    global: { scrape_interval: interval, scrape_timeout: `${Math.min(intervalSeconds, 10)}s`, evaluation_interval: interval },
    rule_files: [rulesFile],
    scrape_configs: Object.entries(targets).map(([job, targetPort]) => ({ job_name: job, static_configs: [{ targets: [`${host}:${targetPort}`] }] })),
  }));
  const t0 = Date.now();
  const proc = await launchUntilReady({
    name: 'prometheus',
    cmd: binary,
    args: [`--config.file=${configFile}`, `--storage.tsdb.path=${path.join(dataDir, 'data')}`, `--web.listen-address=${host}:${port}`, '--storage.tsdb.retention.time=7d'],
    cwd: dataDir,
    env: { ...process.env },
    logFile: path.join(dataDir, 'prometheus.log'),
    pidFile: path.join(dataDir, 'prometheus.pid'),
    stopSignal: 'SIGTERM',
    check: async () => (await fetch(`http://${host}:${port}/-/ready`)).ok,
    timeoutMs: START_TIMEOUT_MS,
    log,
  });
  const url = `http://${host}:${port}`;
  log(`prometheus: up on ${url} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  return { url, stop: () => stopProc(proc, log) };
}

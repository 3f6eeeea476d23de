/**
 * What the chart test files share: a scratch copy of the charts for the test file, each scenario
 * rendered once, and ways to find objects among the rendered ones.
 */
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { IPod } from 'kubernetes-models/v1/Pod';
import type { IPodTemplateSpec } from 'kubernetes-models/v1/PodTemplateSpec';
import { Charts, SERVICE_CHARTS, UMBRELLA, type K8sObject, type RenderOptions } from './helm';

export interface ChartsOfTestFile {
  /** The scratch copy of helm/, prepared before the file's first test. */
  charts(): Charts;
  /** The objects of a scenario of a chart, rendered once per test file. */
  scenario(chart: string, values: string, options?: Omit<RenderOptions, 'values'>): K8sObject[];
  /** The ci/*-values.yaml scenarios of the umbrella chart. */
  umbrellaScenarios(): string[];
  /** Every chart with each of its scenarios. */
  allScenarios(): (readonly [string, string])[];
}

/** Charts for a whole test file: copied and built before its first test, removed after its last. */
export function chartsForTestFile(): ChartsOfTestFile {
  let prepared: Charts | undefined;
  const rendered = new Map<string, K8sObject[]>();

  beforeAll(() => {
    prepared = Charts.prepare();
  }, 120_000);
  afterAll(() => prepared?.remove());

  const charts = (): Charts => {
    if (!prepared) throw new Error('the charts are prepared in beforeAll: use them inside a test or a hook');
    return prepared;
  };
  const scenario = (chart: string, values: string, options: Omit<RenderOptions, 'values'> = {}): K8sObject[] => {
    const key = JSON.stringify([chart, values, options]);
    if (!rendered.has(key)) rendered.set(key, charts().render(chart, { ...options, values: [values] }));
    return rendered.get(key)!;
  };
  return {
    charts,
    scenario,
    umbrellaScenarios: () => charts().scenarios(UMBRELLA),
    allScenarios: () => [UMBRELLA, ...SERVICE_CHARTS].flatMap((chart) => charts().scenarios(chart).map((values) => [chart, values] as const)),
  };
}

export const ofKind = <T>(objects: K8sObject[], kind: string): (K8sObject & T)[] => objects.filter((object) => object.kind === kind) as (K8sObject & T)[];

export const named = <T>(objects: K8sObject[], kind: string, name: string): K8sObject & T => {
  const found = ofKind<T>(objects, kind).find((object) => object.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} among ${objects.map((object) => `${object.kind}/${object.metadata.name}`).join(', ')}`);
  return found;
};

export const hook = (object: K8sObject) => object.metadata.annotations?.['helm.sh/hook'];

export const selects = (selector: Record<string, string> | undefined, labels: Record<string, string> | undefined) =>
  Object.keys(selector ?? {}).length > 0 && Object.entries(selector!).every(([key, value]) => labels?.[key] === value);

/** Every pod the release can run, with where it comes from. */
export function pods(objects: K8sObject[]): { owner: K8sObject; template: IPodTemplateSpec | IPod }[] {
  return [
    ...ofKind<IDeployment>(objects, 'Deployment').map((owner) => ({ owner, template: owner.spec!.template })),
    ...ofKind<IJob>(objects, 'Job').map((owner) => ({ owner, template: owner.spec!.template })),
    ...ofKind<IPod>(objects, 'Pod').map((owner) => ({ owner, template: owner as IPod })),
  ];
}

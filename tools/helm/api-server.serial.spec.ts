/**
 * The umbrella chart on a real Kubernetes API server (the control plane `npm test` starts beside
 * the stack: etcd, kube-apiserver, the controller manager and the scheduler, no node): what
 * `helm template` cannot check — the API's own schemas with strict field validation, defaulting,
 * admission, the controllers acting on what the chart creates — and helm's install, upgrade,
 * rollback and uninstall against it. Pods stay Pending: no kubelet runs them here, so the install
 * skips the hooks (Jobs that would wait for a node); a server-side dry run checks them with the rest.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testStack } from '@trilha/testing';
import { Charts, kubectlBinary, parseManifests } from './helm';

const stack = testStack();
const NAMESPACE = 'trilha-api-server';
const SERVICES = ['api-gateway', 'tracking-service', 'atendimento-service', 'delivery-service'];

interface Listed<T> {
  items: T[];
}
interface Deployment {
  metadata: { name: string; labels: Record<string, string> };
  spec: { strategy: { type: string; rollingUpdate?: { maxSurge: unknown } }; template: { spec: { containers: { image: string }[] } } };
}

function kubectl(args: string[]): { status: number; stdout: string; stderr: string } {
  const result = spawnSync(kubectlBinary(), ['--kubeconfig', stack.kubeconfig, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status ?? 1, stdout: result.stdout, stderr: result.stderr };
}
const kubectlJson = <T>(args: string[]): T => {
  const result = kubectl([...args, '-o', 'json']);
  if (result.status !== 0) throw new Error(`kubectl ${args.join(' ')}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
};
const deployments = () => kubectlJson<Listed<Deployment>>(['get', 'deployments', '-n', NAMESPACE]).items;

describe('the umbrella chart on a Kubernetes API server', () => {
  let charts: Charts;
  const helm = (args: string[]) => charts.helm(args, stack.kubeconfig);
  const install = ['--namespace', NAMESPACE, '--values'];

  beforeAll(() => {
    charts = Charts.prepare();
  });
  afterAll(() => charts?.remove());

  it('accepts every object with strict field validation, installs, defaults, and its controllers act on what the chart creates', () => {
    const values = join(charts.chartDir('trilha'), 'ci/minimal-values.yaml');
    expect(kubectl(['create', 'namespace', NAMESPACE])).toMatchObject({ status: 0 });
    // Every object the chart renders, hooks and helm test's Pod included: a server-side dry run
    // with the API's own schemas, unknown or misspelt fields refused.
    const rendered = parseManifests(charts.helmOrThrow(['template', 'trilha', charts.chartDir('trilha'), ...install, values]));
    const renderedFile = join(charts.dir, 'rendered.json');
    writeFileSync(renderedFile, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: rendered }));
    expect(kubectl(['create', '--dry-run=server', '--validate=strict', '-n', NAMESPACE, '-f', renderedFile])).toMatchObject({ status: 0 });

    // The hooks (topics and migrations Jobs) would wait for a node: installed without them.
    expect(helm(['install', 'trilha', charts.chartDir('trilha'), ...install, values, '--no-hooks'])).toMatchObject({ status: 0 });
    const created = deployments();
    expect(created.map((deployment) => deployment.metadata.name).sort()).toEqual(SERVICES.map((service) => `trilha-${service}`).sort());
    // Defaulted by the API server where the chart says nothing.
    for (const deployment of created) expect(deployment.spec.strategy.type).toBe('RollingUpdate');
    // The controllers made each Deployment's ReplicaSet and its Pods, Pending without a node.
    const replicaSets = kubectlJson<Listed<{ metadata: { ownerReferences: { name: string }[] } }>>(['get', 'replicasets', '-n', NAMESPACE]).items;
    expect(new Set(replicaSets.map((set) => set.metadata.ownerReferences[0].name))).toEqual(new Set(created.map((deployment) => deployment.metadata.name)));
    const pods = kubectlJson<Listed<{ status: { phase: string } }>>(['get', 'pods', '-n', NAMESPACE]).items;
    expect(pods.length).toBeGreaterThanOrEqual(SERVICES.length);
    expect(new Set(pods.map((pod) => pod.status.phase))).toEqual(new Set(['Pending']));
  });

  it('refuses a value the schema refuses before touching the cluster, naming it', () => {
    const refused = helm(['upgrade', 'trilha', charts.chartDir('trilha'), ...install, join(charts.chartDir('trilha'), 'ci/minimal-values.yaml'), '--no-hooks', '--set', 'api-gateway.replicaCount=muitos']);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/replicaCount/);
    expect(helm(['history', 'trilha', '-n', NAMESPACE, '-o', 'json'])).toMatchObject({ status: 0, stdout: expect.stringMatching(/^\[\{"revision":1,/) });
  });

  it('upgrades the delivery service alone to another image tag, rolls back, and uninstalls', () => {
    const values = join(charts.chartDir('trilha'), 'ci/minimal-values.yaml');
    const image = () => deployments().find((deployment) => deployment.metadata.name === 'trilha-delivery-service')!.spec.template.spec.containers[0].image;
    const before = image();
    const others = () => deployments().filter((deployment) => deployment.metadata.name !== 'trilha-delivery-service').map((deployment) => deployment.spec.template.spec.containers[0].image);
    const othersBefore = others();

    expect(helm(['upgrade', 'trilha', charts.chartDir('trilha'), ...install, values, '--no-hooks', '--set', 'delivery-service.image.tag=0.2.0'])).toMatchObject({ status: 0 });
    expect(image()).toMatch(/:0\.2\.0$/);
    expect(others()).toEqual(othersBefore);

    expect(helm(['rollback', 'trilha', '1', '-n', NAMESPACE, '--no-hooks'])).toMatchObject({ status: 0 });
    expect(image()).toBe(before);

    expect(helm(['uninstall', 'trilha', '-n', NAMESPACE, '--no-hooks'])).toMatchObject({ status: 0 });
    expect(deployments()).toEqual([]);
    expect(kubectlJson<Listed<unknown>>(['get', 'services,secrets,configmaps', '-n', NAMESPACE, '-l', 'app.kubernetes.io/instance=trilha']).items).toEqual([]);
  });
});

/**
 * The Helm charts as an operator meets them: lint, render every scenario (helm/<chart>/ci), check
 * each object against the Kubernetes schemas (kubernetes-models), the values schemas, and what
 * operators rely on in the rendered objects. The configuration contract test, which starts the
 * services with the rendered settings, is contract.e2e.spec.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IPod } from 'kubernetes-models/v1/Pod';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import type { IPodTemplateSpec } from 'kubernetes-models/v1/PodTemplateSpec';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import type { IService } from 'kubernetes-models/v1/Service';
import { TOPIC_SPECS } from '@trilha/contracts';
import { Charts, LIBRARY, REPO_HELM_DIR, SERVICE_CHARTS, UMBRELLA, type K8sObject, type RenderOptions } from './helm';
import { schemaFile, VALUES_SCHEMAS } from './values-schema';

let charts: Charts;
const rendered = new Map<string, K8sObject[]>();

beforeAll(() => {
  charts = Charts.prepare();
}, 120_000);

afterAll(() => charts?.remove());

/** The objects of a scenario of a chart, rendered once. */
function scenario(chart: string, values: string, options: Omit<RenderOptions, 'values'> = {}): K8sObject[] {
  const key = JSON.stringify([chart, values, options]);
  if (!rendered.has(key)) rendered.set(key, charts.render(chart, { ...options, values: [values] }));
  return rendered.get(key)!;
}

const ofKind = <T>(objects: K8sObject[], kind: string): (K8sObject & T)[] => objects.filter((object) => object.kind === kind) as (K8sObject & T)[];
const named = <T>(objects: K8sObject[], kind: string, name: string): K8sObject & T => {
  const found = ofKind<T>(objects, kind).find((object) => object.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} among ${objects.map((object) => `${object.kind}/${object.metadata.name}`).join(', ')}`);
  return found;
};
const hook = (object: K8sObject) => object.metadata.annotations?.['helm.sh/hook'];
const selects = (selector: Record<string, string> | undefined, labels: Record<string, string> | undefined) =>
  Object.keys(selector ?? {}).length > 0 && Object.entries(selector!).every(([key, value]) => labels?.[key] === value);

/** Every pod the release can run, with where it comes from. */
function pods(objects: K8sObject[]): { owner: K8sObject; template: IPodTemplateSpec | IPod }[] {
  return [
    ...ofKind<IDeployment>(objects, 'Deployment').map((owner) => ({ owner, template: owner.spec!.template })),
    ...ofKind<IJob>(objects, 'Job').map((owner) => ({ owner, template: owner.spec!.template })),
    ...ofKind<IPod>(objects, 'Pod').map((owner) => ({ owner, template: owner as IPod })),
  ];
}

const umbrellaScenarios = () => charts.scenarios(UMBRELLA);
const allScenarios = () => [UMBRELLA, ...SERVICE_CHARTS].flatMap((chart) => charts.scenarios(chart).map((values) => [chart, values] as const));

// --- Kubernetes schemas ------------------------------------------------------------------------

const CRD_MODELS: Record<string, string> = {
  'monitoring.coreos.com': '@kubernetes-models/prometheus-operator/monitoring.coreos.com',
  'keda.sh': '@kubernetes-models/keda/keda.sh',
};

/** Strimzi publishes no models: the fields the Topic Operator needs. */
function validateKafkaTopic(topic: K8sObject): void {
  const spec = topic.spec as { topicName?: unknown; partitions?: unknown; replicas?: unknown; config?: unknown };
  if (!/^kafka\.strimzi\.io\/(v1beta2|v1)$/.test(topic.apiVersion)) throw new Error(`KafkaTopic apiVersion ${topic.apiVersion}`);
  if (!topic.metadata.labels?.['strimzi.io/cluster']) throw new Error('KafkaTopic without the strimzi.io/cluster label');
  if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(topic.metadata.name)) throw new Error(`KafkaTopic name ${topic.metadata.name} is not a DNS subdomain`);
  if (typeof spec.topicName !== 'string' || !Number.isInteger(spec.partitions) || !Number.isInteger(spec.replicas) || typeof spec.config !== 'object') {
    throw new Error(`KafkaTopic ${topic.metadata.name}: spec needs topicName, integer partitions and replicas, config`);
  }
}

function validateAgainstKubernetesSchema(object: K8sObject): void {
  if (object.kind === 'KafkaTopic') return validateKafkaTopic(object);
  const [group, version] = object.apiVersion.includes('/') ? object.apiVersion.split('/') : ['', object.apiVersion];
  const modulePath = group === '' ? `kubernetes-models/${version}` : `${CRD_MODELS[group] ?? `kubernetes-models/${group}`}/${version}`;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Model = (require(modulePath) as Record<string, new (data: unknown) => { validate(): void }>)[object.kind];
  if (!Model) throw new Error(`no schema for ${object.apiVersion} ${object.kind}`);
  new Model(object).validate();
}

// --- Tests -------------------------------------------------------------------------------------

describe('helm lint --strict', () => {
  it('passes for the library chart', () => {
    expect(charts.helmOrThrow(['lint', '--strict', charts.chartDir(LIBRARY)])).toContain('0 chart(s) failed');
  });

  it('passes for every chart with each of its scenarios', () => {
    const scenarios = allScenarios();
    expect(scenarios.length).toBeGreaterThanOrEqual(9);
    for (const [chart, values] of scenarios) {
      const result = charts.helm(['lint', '--strict', charts.chartDir(chart), '--values', join(charts.chartDir(chart), values)]);
      expect({ chart, values, status: result.status, output: result.stdout + result.stderr }).toMatchObject({ status: 0 });
    }
  });
});

describe('helm template', () => {
  it('with the default values alone fails, naming the value to set', () => {
    expect(charts.renderError(UMBRELLA)).toMatch(/global\.kafka\.brokers is required/);
  });

  it.each([
    ['global.kafka.brokers', 'global.kafka.brokers is required'],
    ['global.database.url', 'DATABASE_URL is required: set global.database.url (or global.database.existingSecret)'],
    ['global.internalApiToken', 'INTERNAL_API_TOKEN is required: set global.internalApiToken (or global.existingSecret)'],
    ['api-gateway.redis.url', 'REDIS_URL is required: set api-gateway.redis.url (or api-gateway.redis.existingSecret)'],
    ['api-gateway.tokenSigningSecret', 'TOKEN_SIGNING_SECRET is required: set api-gateway.tokenSigningSecret (or global.existingSecret)'],
  ])('without %s fails saying so', (value, message) => {
    expect(charts.renderError(UMBRELLA, { values: ['ci/minimal-values.yaml'], set: { [value]: '' } })).toContain(message);
  });

  it('renders every scenario into objects that validate against the Kubernetes schemas', () => {
    for (const [chart, values] of allScenarios()) {
      const objects = scenario(chart, values);
      expect(objects.length).toBeGreaterThan(0);
      for (const object of objects) {
        try {
          validateAgainstKubernetesSchema(object);
        } catch (error) {
          throw new Error(`${chart} ${values}: ${object.kind} ${object.metadata.name}: ${(error as Error).message}`);
        }
      }
    }
  });

  it('renders each object name once per kind and namespace', () => {
    for (const [chart, values] of allScenarios()) {
      const keys = scenario(chart, values).map((object) => `${object.kind}/${object.metadata.namespace}/${object.metadata.name}`);
      expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
    }
  });
});

describe('values.schema.json', () => {
  it.each([
    [UMBRELLA, 'kafkaTopic.mode', 'job', "additional properties 'kafkaTopic' not allowed"],
    [UMBRELLA, 'global.databse.url', 'postgresql://x', "additional properties 'databse' not allowed"],
    [UMBRELLA, 'api-gateway.replicaCont', '3', "additional properties 'replicaCont' not allowed"],
    [UMBRELLA, 'delivery-service.keda.lagTreshold', '10', "additional properties 'lagTreshold' not allowed"],
    [UMBRELLA, 'api-gateway.ingress.hosts[0].paths[0].pathTyp', 'Prefix', "additional properties 'pathTyp' not allowed"],
    [UMBRELLA, 'tracking-service.logLevel', 'verbose', 'logLevel'],
    [UMBRELLA, 'api-gateway.tokenSigningSecret', 'too-short', 'tokenSigningSecret'],
    ['tracking-service', 'autoscaling.enable', 'true', "additional properties 'enable' not allowed"],
    [UMBRELLA, 'global.kafka.sasl.mechanism', 'gssapi', "value must be one of '', 'plain', 'scram-sha-256', 'scram-sha-512'"],
    [UMBRELLA, 'global.kafka.tls.ca.secret', 'kafka-ca', "additional properties 'secret' not allowed"],
    ['delivery-service', 'webhooks.retrySchedule', 'every 10s', 'retrySchedule'],
    ['delivery-service', 'webhooks.disableAfter', '5 dias', 'disableAfter'],
  ])('of %s rejects %s', (chart, key, value, message) => {
    const error = charts.renderError(chart, { values: ['ci/minimal-values.yaml'], set: { [key]: value } });
    expect(error).toContain('values don\'t meet the specifications of the schema');
    expect(error).toContain(message);
  });

  it('rejects a value of the wrong type', () => {
    const error = charts.helm([...charts.templateArgs(UMBRELLA, { values: ['ci/minimal-values.yaml'] }), '--set', 'api-gateway.replicaCount=two']);
    expect(error.status).not.toBe(0);
    expect(error.stderr).toMatch(/replicaCount.*got string, want integer/);
  });

  it('is generated from tools/helm/values-schema.ts (run `npm run build && node dist/tools/helm/values-schema.js` after changing it)', () => {
    for (const chart of Object.keys(VALUES_SCHEMAS)) {
      expect({ chart, file: readFileSync(join(REPO_HELM_DIR, chart, 'values.schema.json'), 'utf8') }).toEqual({ chart, file: schemaFile(chart) });
    }
  });

  it('describes only values that values.yaml documents with a default', () => {
    const missing: string[] = [];
    const walk = (schema: Record<string, unknown>, values: Record<string, unknown> | undefined, path: string) => {
      const properties = schema.properties as Record<string, Record<string, unknown>> | undefined;
      if (!properties || schema.additionalProperties !== false) return;
      for (const [key, property] of Object.entries(properties)) {
        if (key === 'trilha-common') continue;
        if (!values || !(key in values)) missing.push(`${path}${key}`);
        else if (property.type === 'object') walk(property, values[key] as Record<string, unknown>, `${path}${key}.`);
      }
    };
    for (const chart of Object.keys(VALUES_SCHEMAS)) {
      walk(VALUES_SCHEMAS[chart], parse(readFileSync(join(REPO_HELM_DIR, chart, 'values.yaml'), 'utf8')), `${chart}: `);
    }
    expect(missing).toEqual([]);
  });
});

describe('rendered objects', () => {
  const production = () => scenario(UMBRELLA, 'ci/production-values.yaml');

  it('have selectors that agree with the labels of what they select', () => {
    for (const values of umbrellaScenarios()) {
      const objects = scenario(UMBRELLA, values);
      const deployments = ofKind<IDeployment>(objects, 'Deployment');
      const podLabels = pods(objects).map(({ owner, template }) => ({ owner: `${owner.kind}/${owner.metadata.name}`, labels: template.metadata?.labels }));
      const selectedPods = (selector: Record<string, string> | undefined) => podLabels.filter((pod) => selects(selector, pod.labels)).map((pod) => pod.owner);

      expect(deployments).toHaveLength(4);
      for (const deployment of deployments) {
        const own = `Deployment/${deployment.metadata.name}`;
        expect(selectedPods(deployment.spec!.selector.matchLabels)).toEqual([own]);
        for (const constraint of deployment.spec!.template.spec!.topologySpreadConstraints ?? []) {
          expect(selectedPods(constraint.labelSelector?.matchLabels)).toEqual([own]);
        }
      }
      for (const service of ofKind<IService>(objects, 'Service')) {
        const [target] = selectedPods(service.spec!.selector);
        expect(selectedPods(service.spec!.selector)).toEqual([`Deployment/${service.metadata.name}`]);
        const containerPorts = named<IDeployment>(objects, 'Deployment', target.split('/')[1]).spec!.template.spec!.containers[0].ports!.map((port) => port.name);
        for (const port of service.spec!.ports!) expect(containerPorts).toContain(port.targetPort);
      }
      for (const pdb of ofKind<IPodDisruptionBudget>(objects, 'PodDisruptionBudget')) {
        expect(selectedPods(pdb.spec!.selector!.matchLabels)).toEqual([`Deployment/${pdb.metadata.name}`]);
      }
      for (const policy of ofKind<INetworkPolicy>(objects, 'NetworkPolicy')) {
        expect(selectedPods(policy.spec!.podSelector.matchLabels)).toEqual([`Deployment/${policy.metadata.name}`]);
      }
      for (const monitor of ofKind<{ spec: { selector: { matchLabels: Record<string, string> }; endpoints: { port: string }[] } }>(objects, 'ServiceMonitor')) {
        const services = ofKind<IService>(objects, 'Service').filter((service) => selects(monitor.spec.selector.matchLabels, service.metadata.labels));
        expect(services.map((service) => service.metadata.name)).toEqual([monitor.metadata.name]);
        expect(services[0].spec!.ports!.map((port) => port.name)).toContain(monitor.spec.endpoints[0].port);
      }
      for (const scaler of [...ofKind<IHorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler'), ...ofKind<IHorizontalPodAutoscaler>(objects, 'ScaledObject')]) {
        expect(named<IDeployment>(objects, 'Deployment', scaler.spec!.scaleTargetRef.name).metadata.name).toBe(scaler.metadata.name);
      }
      for (const ingress of ofKind<IIngress>(objects, 'Ingress')) {
        for (const path of ingress.spec!.rules!.flatMap((rule) => rule.http!.paths)) {
          const service = named<IService>(objects, 'Service', path.backend.service!.name);
          expect(service.spec!.ports!.map((port) => port.name)).toContain(path.backend.service!.port!.name);
        }
      }
    }
  });

  it('scale the delivery service alone with its HPA', () => {
    const hpas = ofKind<IHorizontalPodAutoscaler>(production(), 'HorizontalPodAutoscaler');
    expect(hpas.map((hpa) => hpa.spec!.scaleTargetRef.name).sort()).toEqual(['trilha-api-gateway', 'trilha-atendimento-service', 'trilha-delivery-service', 'trilha-tracking-service']);
    const delivery = named<IHorizontalPodAutoscaler>(production(), 'HorizontalPodAutoscaler', 'trilha-delivery-service');
    expect(delivery.spec).toMatchObject({ scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'trilha-delivery-service' }, minReplicas: 2, maxReplicas: 6 });
    // A Deployment under an HPA leaves replicas to it, so an upgrade never resets the scale.
    for (const deployment of ofKind<IDeployment>(production(), 'Deployment')) expect(deployment.spec!.replicas).toBeUndefined();
  });

  it('scale the delivery service alone on its consumer lag with KEDA', () => {
    const objects = scenario(UMBRELLA, 'ci/keda-values.yaml');
    expect(ofKind(objects, 'HorizontalPodAutoscaler')).toEqual([]);
    const [scaledObject] = ofKind<{ spec: Record<string, unknown> }>(objects, 'ScaledObject');
    expect(scaledObject.spec).toMatchObject({
      scaleTargetRef: { kind: 'Deployment', name: 'trilha-delivery-service' },
      minReplicaCount: 1,
      maxReplicaCount: 12,
      triggers: [{ type: 'kafka', metadata: { bootstrapServers: 'kafka.example.internal:9092', consumerGroup: 'delivery-service', lagThreshold: '50' } }],
    });
    expect(ofKind(objects, 'ScaledObject')).toHaveLength(1);
    for (const deployment of ofKind<IDeployment>(objects, 'Deployment')) {
      expect([deployment.metadata.name, deployment.spec!.replicas]).toEqual([deployment.metadata.name, deployment.metadata.name === 'trilha-delivery-service' ? undefined : 2]);
    }
    // KEDA runs its own HPA: both at once is refused.
    expect(charts.renderError(UMBRELLA, { values: ['ci/keda-values.yaml'], set: { 'delivery-service.autoscaling.enabled': 'true' } })).toContain('exclude each other');
  });

  it('run the topics Job, then the migrations, as hooks with their inputs created before them', () => {
    for (const values of ['ci/minimal-values.yaml', 'ci/production-values.yaml']) {
      const objects = scenario(UMBRELLA, values);
      const hooks = objects.filter(hook);
      const weight = (object: K8sObject) => Number(object.metadata.annotations!['helm.sh/hook-weight']);
      const annotations = (object: K8sObject) => object.metadata.annotations;

      const migrations = ofKind<IJob>(hooks, 'Job').filter((job) => job.metadata.name.endsWith('-migrations'));
      expect(migrations.map((job) => job.metadata.name).sort()).toEqual(SERVICE_CHARTS.map((chart) => `trilha-${chart}-migrations`).sort());
      const topicsJob = named<IJob>(objects, 'Job', 'trilha-kafka-topics');
      for (const object of [...migrations, topicsJob]) {
        expect(annotations(object)).toMatchObject({ 'helm.sh/hook': 'pre-install,pre-upgrade', 'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded' });
      }
      for (const job of migrations) {
        expect(weight(topicsJob)).toBeLessThan(weight(job));
        const container = job.spec!.template.spec!.containers[0];
        expect(container.args).toEqual(['migrate']);
        expect(job.spec!.template.spec!.restartPolicy).toBe('Never');
        // On install the release's own Secret and ServiceAccount do not exist yet: the Job uses a hook Secret of its own.
        expect(job.spec!.template.spec!.serviceAccountName).toBeUndefined();
        const secretNames = new Set(container.env!.flatMap((env) => (env.valueFrom?.secretKeyRef ? [env.valueFrom.secretKeyRef.name] : [])));
        expect([...secretNames]).toEqual([job.metadata.name]);
        const hookSecret = named<ISecret>(objects, 'Secret', job.metadata.name);
        expect(annotations(hookSecret)).toMatchObject({ 'helm.sh/hook': 'pre-install,pre-upgrade', 'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded' });
        expect(weight(hookSecret)).toBeLessThan(weight(job));
        // The same settings as the service it migrates for.
        const deployment = named<IDeployment>(objects, 'Deployment', job.metadata.name.replace(/-migrations$/, ''));
        expect(container.env!.map((env) => env.name)).toEqual(deployment.spec!.template.spec!.containers[0].env!.map((env) => env.name));
        expect(hookSecret.data).toEqual(named<ISecret>(objects, 'Secret', deployment.metadata.name).data);
      }
      const [test] = ofKind(objects, 'Pod');
      expect(annotations(test)).toMatchObject({ 'helm.sh/hook': 'test' });
      // Everything else belongs to the release.
      expect(hooks.length).toBe(migrations.length * 2 + 2);
    }
  });

  it('run every container as non-root on a read-only root filesystem, without a service-account token', () => {
    for (const [chart, values] of allScenarios()) {
      for (const { owner, template } of pods(scenario(chart, values))) {
        const spec = template.spec as IPodSpec;
        const where = `${chart} ${values} ${owner.kind}/${owner.metadata.name}`;
        expect({ where, automount: spec.automountServiceAccountToken, runAsNonRoot: spec.securityContext?.runAsNonRoot, seccomp: spec.securityContext?.seccompProfile?.type })
          .toEqual({ where, automount: false, runAsNonRoot: true, seccomp: 'RuntimeDefault' });
        for (const container of spec.containers) {
          expect({ where, securityContext: container.securityContext }).toMatchObject({
            where,
            securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
          });
          expect(container.resources?.limits?.memory).toBeDefined();
        }
      }
    }
  });

  it('probe /healthz and /readyz on the ops port', () => {
    for (const deployment of ofKind<IDeployment>(production(), 'Deployment')) {
      const container = deployment.spec!.template.spec!.containers[0];
      const ops = container.ports!.find((port) => port.name === 'ops')!.containerPort;
      expect(container.env).toContainEqual({ name: 'OPS_PORT', value: String(ops) });
      expect(container.startupProbe?.httpGet).toEqual({ path: '/healthz', port: 'ops' });
      expect(container.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'ops' });
      expect(container.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'ops' });
    }
  });

  it('give a PodDisruptionBudget only to a service that runs more than one replica', () => {
    expect(ofKind(scenario(UMBRELLA, 'ci/minimal-values.yaml'), 'PodDisruptionBudget')).toHaveLength(4);
    const objects = scenario(UMBRELLA, 'ci/minimal-values.yaml', { set: { 'tracking-service.replicaCount': '1' } });
    expect(ofKind(objects, 'PodDisruptionBudget').map((pdb) => pdb.metadata.name).sort()).toEqual(['trilha-api-gateway', 'trilha-atendimento-service', 'trilha-delivery-service']);
    expect(named<IPodDisruptionBudget>(objects, 'PodDisruptionBudget', 'trilha-delivery-service').spec).toMatchObject({ maxUnavailable: 1 });
  });

  it('create the topics of libs/contracts with their partitions and retention, with the services\' own code', () => {
    const job = named<IJob>(scenario(UMBRELLA, 'ci/minimal-values.yaml'), 'Job', 'trilha-kafka-topics');
    const container = job.spec!.template.spec!.containers[0];
    // The image's entry point (node /app/main.js) with the command of libs/platform/service-runtime.
    expect({ image: container.image, command: container.command, args: container.args }).toEqual({ image: 'trilha/api-gateway:0.1.0', command: undefined, args: ['create-topics'] });
    const env = Object.fromEntries(container.env!.map((entry) => [entry.name, entry.value]));
    const topics = JSON.parse(env.KAFKA_TOPICS!) as { name: string; partitions: number; replicationFactor: number; config: Record<string, string> }[];
    expect(topics.map(({ name, partitions }) => ({ name, partitions }))).toEqual(TOPIC_SPECS.map(({ name, partitions }) => ({ name, partitions })));
    for (const topic of topics) {
      expect(topic.config).toMatchObject(TOPIC_SPECS.find((spec) => spec.name === topic.name)!.config);
      expect(topic.replicationFactor).toBe(3);
    }
    expect(env.KAFKA_BROKERS).toBe('kafka-0.kafka.example.internal:9092,kafka-1.kafka.example.internal:9092,kafka-2.kafka.example.internal:9092');
  });

  it('declare the topics as Strimzi KafkaTopics, kept on uninstall, instead of the Job', () => {
    const objects = scenario(UMBRELLA, 'ci/strimzi-values.yaml');
    expect(ofKind(objects, 'Job').map((job) => job.metadata.name)).not.toContain('trilha-kafka-topics');
    const kafkaTopics = ofKind<{ spec: Record<string, unknown> }>(objects, 'KafkaTopic');
    expect(kafkaTopics.map((topic) => topic.spec)).toEqual(
      TOPIC_SPECS.map((spec) => ({ topicName: spec.name, partitions: spec.partitions, replicas: 3, config: expect.objectContaining(spec.config) })),
    );
    for (const topic of kafkaTopics) {
      expect(topic.metadata).toMatchObject({ namespace: 'kafka', labels: { 'strimzi.io/cluster': 'trilha-kafka' }, annotations: { 'helm.sh/resource-policy': 'keep' } });
      expect(hook(topic)).toBeUndefined();
    }
  });

  it('take every secret from existing Secrets when told to, and store none', () => {
    const objects = scenario(UMBRELLA, 'ci/existing-secrets-values.yaml');
    expect(ofKind(objects, 'Secret')).toEqual([]);
    const gateway = named<IDeployment>(objects, 'Deployment', 'trilha-api-gateway').spec!.template.spec!;
    const refs = Object.fromEntries(gateway.containers[0].env!.filter((env) => env.valueFrom?.secretKeyRef).map((env) => [env.name, env.valueFrom!.secretKeyRef]));
    expect(refs).toEqual({
      DATABASE_URL: { name: 'trilha-postgres-app', key: 'uri' },
      INTERNAL_API_TOKEN: { name: 'trilha-secrets', key: 'internal-api-token' },
      REDIS_URL: { name: 'trilha-redis', key: 'url' },
      TOKEN_SIGNING_SECRET: { name: 'trilha-secrets', key: 'token-signing-secret' },
      ADMIN_API_KEY: { name: 'trilha-secrets', key: 'admin-api-key', optional: true },
    });
    const delivery = named<IDeployment>(objects, 'Deployment', 'trilha-delivery-service').spec!.template.spec!.containers[0];
    expect(delivery.env).toContainEqual({ name: 'DATABASE_URL', valueFrom: { secretKeyRef: { name: 'trilha-delivery-postgres', key: 'uri' } } });
    // The gateway serves TLS itself: the certificate is mounted, in the migrations Job too (main.js reads it first).
    for (const template of [gateway, named<IJob>(objects, 'Job', 'trilha-api-gateway-migrations').spec!.template.spec!]) {
      expect(template.volumes).toContainEqual({ name: 'tls', secret: { secretName: 'trilha-gateway-tls' } });
      expect(template.containers[0].env).toEqual(expect.arrayContaining([
        { name: 'TLS_TERMINATED_BY_PROXY', value: 'false' },
        { name: 'TLS_CERT_FILE', value: '/etc/trilha/tls/tls.crt' },
        { name: 'TLS_KEY_FILE', value: '/etc/trilha/tls/tls.key' },
      ]));
    }
  });

  it('keep the secret values in Secrets, never in the pod specs', () => {
    const objects = scenario(UMBRELLA, 'ci/production-values.yaml');
    const secrets = ['ci-internal-token-0123456789abcdef0123', 'ci-token-signing-secret-0123456789abcdef', 'ci-admin-key-0123456789', 'rediss://:secret@', 'postgresql://trilha:secret@'];
    for (const object of objects.filter((object) => object.kind !== 'Secret')) {
      for (const secret of secrets) expect(JSON.stringify(object)).not.toContain(secret);
    }
    const gatewaySecret = named<ISecret>(objects, 'Secret', 'trilha-api-gateway');
    const decoded = Object.fromEntries(Object.entries(gatewaySecret.data!).map(([key, value]) => [key, Buffer.from(value, 'base64').toString()]));
    expect(decoded).toEqual({
      'database-url': 'postgresql://trilha:secret@postgres.example.internal:5432/trilha?sslmode=verify-full',
      'internal-api-token': 'ci-internal-token-0123456789abcdef0123',
      'redis-url': 'rediss://:secret@redis.example.internal:6380',
      'token-signing-secret': 'ci-token-signing-secret-0123456789abcdef',
      'admin-api-key': 'ci-admin-key-0123456789',
    });
  });

  it('restart the pods when a secret value changes', () => {
    const checksum = (objects: K8sObject[]) => named<IDeployment>(objects, 'Deployment', 'trilha-api-gateway').spec!.template.metadata!.annotations!['checksum/settings'];
    const before = checksum(scenario(UMBRELLA, 'ci/minimal-values.yaml'));
    const after = checksum(scenario(UMBRELLA, 'ci/minimal-values.yaml', { set: { 'api-gateway.tokenSigningSecret': 'a-rotated-token-signing-secret-0123456789' } }));
    expect(after).not.toBe(before);
  });

  it('add settings from config and extraEnv, and refuse one the chart already sets', () => {
    const objects = scenario(UMBRELLA, 'ci/production-values.yaml');
    const env = (name: string) => named<IDeployment>(objects, 'Deployment', name).spec!.template.spec!.containers[0].env!;
    expect(env('trilha-tracking-service')).toContainEqual({ name: 'PUBLIC_BASE_URL', value: 'https://rastreio.trilha.example.com' });
    expect(env('trilha-delivery-service')).toContainEqual({ name: 'WEBHOOK_RETRY_SCHEDULE', value: '10s,1m,5m,30m,2h' });
    expect(env('trilha-api-gateway')).toContainEqual({ name: 'INSTANCE_ID', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } });

    const withExtra = charts.render(UMBRELLA, { values: ['ci/minimal-values.yaml'], set: { 'delivery-service.extraEnv[0].name': 'WEBHOOK_SIGNING_KEY', 'delivery-service.extraEnv[0].valueFrom.secretKeyRef.name': 'keys', 'delivery-service.extraEnv[0].valueFrom.secretKeyRef.key': 'k' } });
    expect(named<IDeployment>(withExtra, 'Deployment', 'trilha-delivery-service').spec!.template.spec!.containers[0].env)
      .toContainEqual({ name: 'WEBHOOK_SIGNING_KEY', valueFrom: { secretKeyRef: { name: 'keys', key: 'k' } } });
    expect(charts.renderError(UMBRELLA, { values: ['ci/minimal-values.yaml'], set: { 'tracking-service.config.KAFKA_BROKERS': 'elsewhere:9092' } }))
      .toContain('environment variable KAFKA_BROKERS is set twice');
  });

  it('point the gateway at the Services of the other charts', () => {
    const objects = production();
    const env = named<IDeployment>(objects, 'Deployment', 'trilha-api-gateway').spec!.template.spec!.containers[0].env!;
    for (const [variable, chart] of [['TRACKING_SERVICE_URL', 'tracking-service'], ['ATENDIMENTO_SERVICE_URL', 'atendimento-service'], ['DELIVERY_SERVICE_URL', 'delivery-service']]) {
      const url = new URL(env.find((entry) => entry.name === variable)!.value!);
      const service = named<IService>(objects, 'Service', url.hostname);
      expect(service.metadata.name).toBe(`trilha-${chart}`);
      expect(service.spec!.ports).toContainEqual(expect.objectContaining({ port: Number(url.port), targetPort: 'internal' }));
    }
  });

  it('let only the gateway reach the services, and the ingress controller and the test reach the gateway', () => {
    const objects = production();
    const gatewayPods = { 'app.kubernetes.io/name': 'api-gateway', 'app.kubernetes.io/instance': 'trilha', 'app.kubernetes.io/component': 'server' };
    for (const chart of ['tracking-service', 'atendimento-service', 'delivery-service']) {
      const policy = named<INetworkPolicy>(objects, 'NetworkPolicy', `trilha-${chart}`);
      expect(policy.spec!.ingress![0]).toEqual({ ports: [{ port: 'internal', protocol: 'TCP' }], from: [{ podSelector: { matchLabels: gatewayPods } }] });
      expect(policy.spec!.policyTypes).toEqual(['Ingress', 'Egress']);
    }
    const gateway = named<INetworkPolicy>(objects, 'NetworkPolicy', 'trilha-api-gateway');
    const [test] = ofKind<IPod>(objects, 'Pod');
    const from = gateway.spec!.ingress![0].from!;
    expect(from).toContainEqual({ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } });
    expect(from.some((peer) => selects(peer.podSelector?.matchLabels, test.metadata.labels))).toBe(true);
    expect(gateway.spec!.egress).toContainEqual({ to: [{ podSelector: { matchLabels: { 'app.kubernetes.io/instance': 'trilha', 'app.kubernetes.io/component': 'server' } } }], ports: [{ port: 'internal', protocol: 'TCP' }] });
  });

  it('reference images by registry, repository, tag and digest', () => {
    const images = Object.fromEntries(ofKind<IDeployment>(production(), 'Deployment').map((deployment) => [deployment.metadata.name, deployment.spec!.template.spec!.containers[0].image]));
    expect(images).toEqual({
      'trilha-api-gateway': 'registry.example.com/trilha/api-gateway:0.1.0@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
      'trilha-tracking-service': 'registry.example.com/trilha/tracking-service:0.1.0',
      'trilha-atendimento-service': 'registry.example.com/trilha/atendimento-service:0.1.0',
      'trilha-delivery-service': 'registry.example.com/trilha/delivery-service:0.1.0',
    });
    const minimal = named<IDeployment>(scenario(UMBRELLA, 'ci/minimal-values.yaml'), 'Deployment', 'trilha-tracking-service');
    expect(minimal.spec!.template.spec!.containers[0].image).toBe('trilha/tracking-service:0.1.0');
  });

  it('expose the gateway through the Ingress with TLS for the API and the public tracking page', () => {
    const [ingress] = ofKind<IIngress>(production(), 'Ingress');
    expect(ingress.spec).toMatchObject({
      ingressClassName: 'nginx',
      tls: [{ secretName: 'trilha-public-tls', hosts: ['api.trilha.example.com', 'rastreio.trilha.example.com'] }],
      rules: [
        { host: 'api.trilha.example.com', http: { paths: [{ path: '/v1', backend: { service: { name: 'trilha-api-gateway', port: { name: 'public' } } } }] } },
        { host: 'rastreio.trilha.example.com', http: { paths: [{ path: '/rastreio', backend: { service: { name: 'trilha-api-gateway', port: { name: 'public' } } } }] } },
      ],
    });
    const env = named<IDeployment>(production(), 'Deployment', 'trilha-api-gateway').spec!.template.spec!.containers[0].env!;
    expect(env).toEqual(expect.arrayContaining([{ name: 'TLS_TERMINATED_BY_PROXY', value: 'true' }, { name: 'TRUSTED_PROXIES', value: '10.244.0.0/16' }]));
    expect(env.map((entry) => entry.name)).not.toContain('TLS_CERT_FILE');
  });

  it('print NOTES.txt telling how to reach the API', () => {
    const notes = (values: string) => {
      const output = charts.helmOrThrow(['install', 'trilha', charts.chartDir(UMBRELLA), '--dry-run=client', '--namespace', 'trilha', '--values', join(charts.chartDir(UMBRELLA), values)]);
      return output.slice(output.indexOf('NOTES:'));
    };
    expect(notes('ci/production-values.yaml')).toContain('https://api.trilha.example.com/v1');
    expect(notes('ci/minimal-values.yaml')).toContain('kubectl port-forward -n trilha svc/trilha-api-gateway 8443:8443');
    expect(notes('ci/minimal-values.yaml')).toContain('no api-gateway.adminApiKey is set');
    expect(notes('ci/strimzi-values.yaml')).toContain('kubectl get kafkatopics -n kafka');
  });
});

describe('Kafka over TLS with SASL', () => {
  const secure = () => scenario(UMBRELLA, 'ci/kafka-security-values.yaml');
  const kafkaPods = (objects: K8sObject[]) => pods(objects).filter(({ owner }) => owner.kind !== 'Pod');
  const envOf = (spec: IPodSpec) => spec.containers[0].env!;

  it('reach the brokers with the same settings from every pod: services, migrations and the topics Job', () => {
    const all = kafkaPods(secure());
    expect(all.map(({ owner }) => `${owner.kind}/${owner.metadata.name}`).sort()).toEqual([
      ...SERVICE_CHARTS.map((chart) => `Deployment/trilha-${chart}`),
      'Job/trilha-kafka-topics',
      ...SERVICE_CHARTS.map((chart) => `Job/trilha-${chart}-migrations`),
    ].sort());
    for (const { owner, template } of all) {
      const spec = template.spec as IPodSpec;
      const where = `${owner.kind}/${owner.metadata.name}`;
      expect({ where, env: envOf(spec) }).toEqual({
        where,
        env: expect.arrayContaining([
          { name: 'KAFKA_BROKERS', value: 'trilha-kafka-bootstrap.kafka.svc:9093' },
          { name: 'KAFKA_SSL', value: 'true' },
          { name: 'KAFKA_SSL_CA_FILE', value: '/etc/trilha/kafka-ca/ca.crt' },
          { name: 'KAFKA_SASL_MECHANISM', value: 'scram-sha-512' },
          { name: 'KAFKA_SASL_USERNAME', value: 'trilha' },
          { name: 'KAFKA_SASL_PASSWORD', valueFrom: { secretKeyRef: { name: 'trilha-kafka-user', key: 'password' } } },
        ]),
      });
      // The CA alone, read-only, from the Secret the operator named.
      expect({ where, volumes: spec.volumes }).toEqual({ where, volumes: expect.arrayContaining([{ name: 'kafka-ca', secret: { secretName: 'trilha-kafka-cluster-ca-cert', items: [{ key: 'ca.crt', path: 'ca.crt' }] } }]) });
      expect({ where, mounts: spec.containers[0].volumeMounts }).toEqual({ where, mounts: expect.arrayContaining([{ name: 'kafka-ca', mountPath: '/etc/trilha/kafka-ca', readOnly: true }]) });
    }
    // The password comes from the operator's Secret: the chart stores it nowhere.
    for (const secret of ofKind<ISecret>(secure(), 'Secret')) expect(Object.keys(secret.data ?? {})).not.toContain('kafka-sasl-password');
  });

  it('keep a SASL password given as a value in the Secrets, the topics Job\'s hook Secret included, never in a pod spec', () => {
    const objects = scenario(UMBRELLA, 'ci/kafka-security-values.yaml', { set: { 'global.kafka.sasl.existingSecret': '', 'global.kafka.sasl.password': 'ci-kafka-password-0123' } });
    for (const object of objects.filter((candidate) => candidate.kind !== 'Secret')) expect(JSON.stringify(object)).not.toContain('ci-kafka-password-0123');
    for (const { owner, template } of kafkaPods(objects)) {
      const password = envOf(template.spec as IPodSpec).find((env) => env.name === 'KAFKA_SASL_PASSWORD')!;
      const secret = named<ISecret>(objects, 'Secret', password.valueFrom!.secretKeyRef!.name!);
      expect({ owner: owner.metadata.name, value: Buffer.from(secret.data![password.valueFrom!.secretKeyRef!.key], 'base64').toString() })
        .toEqual({ owner: owner.metadata.name, value: 'ci-kafka-password-0123' });
    }
    const topicsSecret = named<ISecret>(objects, 'Secret', 'trilha-kafka-topics');
    expect(topicsSecret.metadata.annotations).toMatchObject({ 'helm.sh/hook': 'pre-install,pre-upgrade', 'helm.sh/hook-weight': '-10' });
  });

  it('let KEDA measure the lag over TLS with SASL, with the service\'s own credentials', () => {
    const objects = secure();
    const [scaledObject] = ofKind<{ spec: { triggers: Record<string, unknown>[] } }>(objects, 'ScaledObject');
    expect(scaledObject.spec.triggers).toEqual([expect.objectContaining({
      type: 'kafka',
      metadata: expect.objectContaining({ bootstrapServers: 'trilha-kafka-bootstrap.kafka.svc:9093', tls: 'enable', sasl: 'scram_sha512' }),
      authenticationRef: { name: 'trilha-delivery-service' },
    })]);
    const [authentication] = ofKind<{ spec: Record<string, unknown> }>(objects, 'TriggerAuthentication');
    expect(authentication.metadata.name).toBe('trilha-delivery-service');
    expect(authentication.spec).toEqual({
      // KEDA reads them from the environment of the Deployment's container, as the service gets them.
      env: [
        { parameter: 'username', name: 'KAFKA_SASL_USERNAME', containerName: 'delivery-service' },
        { parameter: 'password', name: 'KAFKA_SASL_PASSWORD', containerName: 'delivery-service' },
      ],
      secretTargetRef: [{ parameter: 'ca', name: 'trilha-kafka-cluster-ca-cert', key: 'ca.crt' }],
    });
    const container = named<IDeployment>(objects, 'Deployment', 'trilha-delivery-service').spec!.template.spec!.containers[0];
    expect(container.name).toBe('delivery-service');
    expect(container.env!.map((env) => env.name)).toEqual(expect.arrayContaining(['KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD']));

    const plain = scenario(UMBRELLA, 'ci/kafka-security-values.yaml', { set: { 'global.kafka.sasl.mechanism': 'plain', 'global.kafka.tls.ca.secretName': '', 'global.kafka.tls.ca.configMapName': 'kafka-ca-bundle' } });
    expect(ofKind<{ spec: { triggers: { metadata: Record<string, string> }[] } }>(plain, 'ScaledObject')[0].spec.triggers[0].metadata).toMatchObject({ tls: 'enable', sasl: 'plaintext' });
    expect(ofKind<{ spec: Record<string, unknown> }>(plain, 'TriggerAuthentication')[0].spec).toMatchObject({ configMapTargetRef: [{ parameter: 'ca', name: 'kafka-ca-bundle', key: 'ca.crt' }] });
    // Plain text and no CA: nothing to authenticate with.
    expect(ofKind(scenario(UMBRELLA, 'ci/keda-values.yaml'), 'TriggerAuthentication')).toEqual([]);
    expect(ofKind<{ spec: { triggers: { metadata: Record<string, string>; authenticationRef?: unknown }[] } }>(scenario(UMBRELLA, 'ci/keda-values.yaml'), 'ScaledObject')[0].spec.triggers[0])
      .not.toHaveProperty('authenticationRef');
  });

  it('connect in plain text by default, setting nothing of TLS or SASL', () => {
    for (const { template } of kafkaPods(scenario(UMBRELLA, 'ci/minimal-values.yaml'))) {
      const spec = template.spec as IPodSpec;
      expect(envOf(spec).map((env) => env.name).filter((name) => name.startsWith('KAFKA_') && name !== 'KAFKA_TOPICS')).toEqual(['KAFKA_BROKERS']);
      expect(spec.volumes!.map((volume) => volume.name)).not.toContain('kafka-ca');
    }
  });

  it.each([
    [{ 'global.kafka.sasl.username': '' }, 'global.kafka.sasl.username is required when global.kafka.sasl.mechanism is set'],
    [{ 'global.kafka.sasl.existingSecret': '' }, 'KAFKA_SASL_PASSWORD is required: set global.kafka.sasl.password (or global.kafka.sasl.existingSecret)'],
    [{ 'global.kafka.tls.enabled': 'false' }, 'global.kafka.tls.ca is set but global.kafka.tls.enabled is false'],
    [{ 'global.kafka.tls.ca.configMapName': 'kafka-ca' }, 'global.kafka.tls.ca: give secretName or configMapName, not both'],
  ])('refuse an incomplete set-up (%j), saying what is missing', (set, message) => {
    expect(charts.renderError(UMBRELLA, { values: ['ci/kafka-security-values.yaml'], set })).toContain(message);
  });
});

describe('the delivery service', () => {
  it('gets its production settings from its values: pool size, retry schedule, deactivation, secret overlap, allowed networks, webhook CA', () => {
    const objects = scenario(UMBRELLA, 'ci/kafka-security-values.yaml');
    const deployment = named<IDeployment>(objects, 'Deployment', 'trilha-delivery-service').spec!.template.spec!;
    const job = named<IJob>(objects, 'Job', 'trilha-delivery-service-migrations').spec!.template.spec!;
    for (const spec of [deployment, job]) {
      expect(spec.containers[0].env).toEqual(expect.arrayContaining([
        { name: 'DATABASE_POOL_SIZE', value: '20' },
        { name: 'WEBHOOK_RETRY_SCHEDULE', value: '10s,1m,5m,30m,2h' },
        { name: 'WEBHOOK_DISABLE_AFTER', value: '5d' },
        { name: 'WEBHOOK_SECRET_OVERLAP', value: '24h' },
        { name: 'WEBHOOK_ALLOWED_CIDRS', value: '10.20.0.0/16' },
        { name: 'WEBHOOK_CA_FILE', value: '/etc/trilha/webhook-ca/ca-bundle.crt' },
      ]));
      expect(spec.volumes).toContainEqual({ name: 'webhook-ca', configMap: { name: 'trilha-webhook-ca', items: [{ key: 'ca-bundle.crt', path: 'ca-bundle.crt' }] } });
    }
    // The other services keep the global pool size; the delivery service's default leaves room for its twelve partitions.
    const minimal = scenario(UMBRELLA, 'ci/minimal-values.yaml');
    const poolSize = (name: string) => named<IDeployment>(minimal, 'Deployment', name).spec!.template.spec!.containers[0].env!.find((env) => env.name === 'DATABASE_POOL_SIZE')!.value;
    expect(SERVICE_CHARTS.map((chart) => [chart, poolSize(`trilha-${chart}`)])).toEqual(SERVICE_CHARTS.map((chart) => [chart, chart === 'delivery-service' ? '20' : '10']));
    const delivery = named<IDeployment>(minimal, 'Deployment', 'trilha-delivery-service').spec!.template.spec!.containers[0].env!.map((env) => env.name);
    expect(delivery).not.toContain('WEBHOOK_ALLOWED_CIDRS');
    expect(delivery).not.toContain('WEBHOOK_CA_FILE');
    expect(charts.renderError(UMBRELLA, { values: ['ci/minimal-values.yaml'], set: { 'delivery-service.config.WEBHOOK_RETRY_SCHEDULE': '1m' } }))
      .toContain('environment variable WEBHOOK_RETRY_SCHEDULE is set twice');
  });
});

/**
 * The Helm charts as an operator meets them, the objects of each service: selectors that agree
 * with labels, scaling (HPA or KEDA), the topics and migrations hooks, probes, disruption budgets,
 * settings, images, the Ingress and NOTES.txt.
 */
import { join } from 'node:path';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import type { IService } from 'kubernetes-models/v1/Service';
import { TOPIC_SPECS } from '@trilha/contracts';
import { SERVICE_CHARTS, UMBRELLA, type K8sObject } from './helm';
import { chartsForTestFile, hook, named, ofKind, pods, selects } from './rendered-charts.fixture';

const { charts, scenario, umbrellaScenarios } = chartsForTestFile();

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
    expect(charts().renderError(UMBRELLA, { values: ['ci/keda-values.yaml'], set: { 'delivery-service.autoscaling.enabled': 'true' } })).toContain('exclude each other');
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

  it('record a tenth of the traces begun in the release by default, each whole, and the share set once for every service', () => {
    const sampling = (objects: K8sObject[]) =>
      ofKind<IDeployment>(objects, 'Deployment').map((deployment) =>
        deployment.spec!.template.spec!.containers[0].env!.filter((env) => env.name.startsWith('OTEL_TRACES_SAMPLER')),
      );
    for (const env of sampling(production())) {
      expect(env).toEqual([
        { name: 'OTEL_TRACES_SAMPLER', value: 'parentbased_traceidratio' },
        { name: 'OTEL_TRACES_SAMPLER_ARG', value: '0.1' },
      ]);
    }
    const everyTrace = scenario(UMBRELLA, 'ci/minimal-values.yaml', { set: { 'global.otel.sampler': 'parentbased_always_on' } });
    for (const env of sampling(everyTrace)) expect(env).toContainEqual({ name: 'OTEL_TRACES_SAMPLER', value: 'parentbased_always_on' });
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

  it('add settings from config and extraEnv, and refuse one the chart already sets', () => {
    const objects = scenario(UMBRELLA, 'ci/production-values.yaml');
    const env = (name: string) => named<IDeployment>(objects, 'Deployment', name).spec!.template.spec!.containers[0].env!;
    expect(env('trilha-tracking-service')).toContainEqual({ name: 'PUBLIC_BASE_URL', value: 'https://rastreio.trilha.example.com' });
    expect(env('trilha-delivery-service')).toContainEqual({ name: 'WEBHOOK_RETRY_SCHEDULE', value: '10s,1m,5m,30m,2h' });
    expect(env('trilha-api-gateway')).toContainEqual({ name: 'PUBLIC_BASE_URL', value: 'https://api.trilha.example.com' });
    expect(env('trilha-api-gateway')).toContainEqual({ name: 'INSTANCE_ID', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } });

    const withExtra = charts().render(UMBRELLA, { values: ['ci/minimal-values.yaml'], set: { 'delivery-service.extraEnv[0].name': 'WEBHOOK_SIGNING_KEY', 'delivery-service.extraEnv[0].valueFrom.secretKeyRef.name': 'keys', 'delivery-service.extraEnv[0].valueFrom.secretKeyRef.key': 'k' } });
    expect(named<IDeployment>(withExtra, 'Deployment', 'trilha-delivery-service').spec!.template.spec!.containers[0].env)
      .toContainEqual({ name: 'WEBHOOK_SIGNING_KEY', valueFrom: { secretKeyRef: { name: 'keys', key: 'k' } } });
    expect(charts().renderError(UMBRELLA, { values: ['ci/minimal-values.yaml'], set: { 'tracking-service.config.KAFKA_BROKERS': 'elsewhere:9092' } }))
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

  it('expose the gateway through the Ingress with TLS for the API, the store portal and the public tracking page', () => {
    const [ingress] = ofKind<IIngress>(production(), 'Ingress');
    expect(ingress.spec).toMatchObject({
      ingressClassName: 'nginx',
      tls: [{ secretName: 'trilha-public-tls', hosts: ['api.trilha.example.com', 'rastreio.trilha.example.com'] }],
      rules: [
        {
          host: 'api.trilha.example.com',
          http: {
            paths: [
              { path: '/v1', backend: { service: { name: 'trilha-api-gateway', port: { name: 'public' } } } },
              { path: '/portal', backend: { service: { name: 'trilha-api-gateway', port: { name: 'public' } } } },
            ],
          },
        },
        { host: 'rastreio.trilha.example.com', http: { paths: [{ path: '/rastreio', backend: { service: { name: 'trilha-api-gateway', port: { name: 'public' } } } }] } },
      ],
    });
    const env = named<IDeployment>(production(), 'Deployment', 'trilha-api-gateway').spec!.template.spec!.containers[0].env!;
    expect(env).toEqual(expect.arrayContaining([{ name: 'TLS_TERMINATED_BY_PROXY', value: 'true' }, { name: 'TRUSTED_PROXIES', value: '10.244.0.0/16' }]));
    expect(env.map((entry) => entry.name)).not.toContain('TLS_CERT_FILE');
  });

  it('print NOTES.txt telling how to reach the API', () => {
    const notes = (values: string) => {
      const output = charts().helmOrThrow(['install', 'trilha', charts().chartDir(UMBRELLA), '--dry-run=client', '--namespace', 'trilha', '--values', join(charts().chartDir(UMBRELLA), values)]);
      return output.slice(output.indexOf('NOTES:'));
    };
    expect(notes('ci/production-values.yaml')).toContain('https://api.trilha.example.com/v1');
    expect(notes('ci/minimal-values.yaml')).toContain('kubectl port-forward -n trilha svc/trilha-api-gateway 8443:8443');
    expect(notes('ci/minimal-values.yaml')).toContain('no api-gateway.adminApiKey is set');
    expect(notes('ci/strimzi-values.yaml')).toContain('kubectl get kafkatopics -n kafka');
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
    expect(charts().renderError(UMBRELLA, { values: ['ci/minimal-values.yaml'], set: { 'delivery-service.config.WEBHOOK_RETRY_SCHEDULE': '1m' } }))
      .toContain('environment variable WEBHOOK_RETRY_SCHEDULE is set twice');
  });
});

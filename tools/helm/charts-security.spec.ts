/**
 * The Helm charts as an operator meets them, security and network: pods without privileges,
 * secret values kept in Secrets (or taken from existing ones), the NetworkPolicies, and Kafka over
 * TLS with SASL.
 */
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { IPod } from 'kubernetes-models/v1/Pod';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import { SERVICE_CHARTS, UMBRELLA, type K8sObject } from './helm';
import { chartsForTestFile, named, ofKind, pods, selects } from './rendered-charts.fixture';

const { charts, scenario, allScenarios } = chartsForTestFile();
/** delivery-service.webhooks.secretKeys of the ci/*-values.yaml scenarios. */
const WEBHOOK_SECRET_KEYS = 'ci1:Y2ktd2ViaG9vay1zZWNyZXQta2V5LTAxMjM0NTY3ODk=';

describe('rendered objects', () => {
  const production = () => scenario(UMBRELLA, 'ci/production-values.yaml');

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
    expect(delivery.env).toContainEqual({ name: 'WEBHOOK_SECRET_KEYS', valueFrom: { secretKeyRef: { name: 'trilha-secrets', key: 'webhook-secret-keys' } } });
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
    const secrets = ['ci-internal-token-0123456789abcdef0123', 'ci-token-signing-secret-0123456789abcdef', 'ci-admin-key-0123456789', 'rediss://:secret@', 'postgresql://trilha:secret@', WEBHOOK_SECRET_KEYS];
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
    const deliverySecret = named<ISecret>(objects, 'Secret', 'trilha-delivery-service');
    expect(Buffer.from(deliverySecret.data!['webhook-secret-keys'], 'base64').toString()).toBe(WEBHOOK_SECRET_KEYS);
    const delivery = named<IDeployment>(objects, 'Deployment', 'trilha-delivery-service').spec!.template.spec!.containers[0];
    expect(delivery.env).toContainEqual({ name: 'WEBHOOK_SECRET_KEYS', valueFrom: { secretKeyRef: { name: 'trilha-delivery-service', key: 'webhook-secret-keys' } } });
  });

  it('restart the pods when a secret value changes', () => {
    const checksum = (objects: K8sObject[]) => named<IDeployment>(objects, 'Deployment', 'trilha-api-gateway').spec!.template.metadata!.annotations!['checksum/settings'];
    const before = checksum(scenario(UMBRELLA, 'ci/minimal-values.yaml'));
    const after = checksum(scenario(UMBRELLA, 'ci/minimal-values.yaml', { set: { 'api-gateway.tokenSigningSecret': 'a-rotated-token-signing-secret-0123456789' } }));
    expect(after).not.toBe(before);
    const deliveryChecksum = (objects: K8sObject[]) => named<IDeployment>(objects, 'Deployment', 'trilha-delivery-service').spec!.template.metadata!.annotations!['checksum/settings'];
    const rotated = scenario(UMBRELLA, 'ci/minimal-values.yaml', { set: { 'delivery-service.webhooks.secretKeys': `k2:${Buffer.alloc(32, 7).toString('base64')}` } });
    expect(deliveryChecksum(rotated)).not.toBe(deliveryChecksum(scenario(UMBRELLA, 'ci/minimal-values.yaml')));
  });

  it('by default, open the gateway’s public port alone, the services’ internal port to the gateway alone, the ops ports to Prometheus, and believe no proxy', () => {
    const objects = scenario(UMBRELLA, 'ci/minimal-values.yaml');
    const prometheus = { namespaceSelector: {}, podSelector: { matchLabels: { 'app.kubernetes.io/name': 'prometheus' } } };
    const podsOf = (chart: string) => pods(objects).filter(({ owner }) => owner.kind === 'Deployment' && owner.metadata.name === `trilha-${chart}`);
    const gatewayPod = podsOf('api-gateway')[0].template.metadata!.labels;
    const [test] = ofKind<IPod>(objects, 'Pod');

    const gateway = named<INetworkPolicy>(objects, 'NetworkPolicy', 'trilha-api-gateway');
    expect(gateway.spec).toEqual({
      podSelector: gateway.spec!.podSelector,
      policyTypes: ['Ingress'],
      ingress: [
        { ports: [{ port: 'public', protocol: 'TCP' }] },
        { ports: [{ port: 'ops', protocol: 'TCP' }], from: [prometheus, { podSelector: { matchLabels: expect.any(Object) } }] },
      ],
    });
    // The helm test pod reads the gateway's /readyz on the ops port.
    expect(selects(gateway.spec!.ingress![1].from![1].podSelector!.matchLabels, test.metadata.labels)).toBe(true);
    expect(selects(gateway.spec!.podSelector.matchLabels, gatewayPod)).toBe(true);
    for (const chart of ['tracking-service', 'atendimento-service', 'delivery-service']) {
      const policy = named<INetworkPolicy>(objects, 'NetworkPolicy', `trilha-${chart}`);
      expect({ chart, spec: policy.spec }).toEqual({
        chart,
        spec: {
          podSelector: policy.spec!.podSelector,
          policyTypes: ['Ingress'],
          ingress: [
            { ports: [{ port: 'internal', protocol: 'TCP' }], from: [{ podSelector: { matchLabels: expect.any(Object) } }] },
            { ports: [{ port: 'ops', protocol: 'TCP' }], from: [prometheus] },
          ],
        },
      });
      // The one peer of the internal port is the release's gateway, and no other pod of the release.
      const peer = policy.spec!.ingress![0].from![0].podSelector!.matchLabels;
      expect(pods(objects).filter(({ template }) => selects(peer, template.metadata!.labels)).map(({ owner }) => owner.metadata.name)).toEqual(['trilha-api-gateway']);
      expect(podsOf(chart).every(({ template }) => selects(policy.spec!.podSelector.matchLabels, template.metadata!.labels))).toBe(true);
    }

    const env = named<IDeployment>(objects, 'Deployment', 'trilha-api-gateway').spec!.template.spec!.containers[0].env!;
    expect(env).toContainEqual({ name: 'TRUSTED_PROXIES', value: '' });
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
    expect(charts().renderError(UMBRELLA, { values: ['ci/kafka-security-values.yaml'], set })).toContain(message);
  });
});

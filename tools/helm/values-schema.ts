/**
 * The values.schema.json of every Trilha chart, from one definition: the charts share most of
 * their values (the `global` block must be the same in all of them, or the umbrella chart's globals
 * would be rejected by a service chart), so the schemas are generated rather than copied by hand.
 * Every object is closed (`additionalProperties: false`): a misspelled value fails `helm install`,
 * `helm template` and `helm lint`. Objects passed through to Kubernetes as they are (resources,
 * probes, affinity, …) stay open here; the Kubernetes schemas check them once rendered.
 *
 * After changing this file: `npm run build && node dist/tools/helm/values-schema.js` rewrites
 * helm/<chart>/values.schema.json (a unit test fails while they differ).
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { WHOLE_TRACE_SAMPLERS } from '@trilha/observability/tracing';

type Schema = Record<string, unknown>;

const str = (description: string, extra: Schema = {}): Schema => ({ type: 'string', description, ...extra });
const int = (description: string, extra: Schema = {}): Schema => ({ type: 'integer', description, ...extra });
const bool = (description: string): Schema => ({ type: 'boolean', description });
const obj = (description: string, properties: Record<string, Schema>, extra: Schema = {}): Schema => ({
  type: 'object',
  description,
  additionalProperties: false,
  properties,
  ...extra,
});
/** A Kubernetes object passed through as is (validated by the Kubernetes schemas once rendered). */
const k8s = (description: string): Schema => ({ type: 'object', description });
const list = (description: string, items: Schema = { type: 'object' }): Schema => ({ type: 'array', description, items });
const stringMap = (description: string): Schema => ({ type: 'object', description, additionalProperties: { type: 'string' } });
const port = (description: string): Schema => int(description, { minimum: 1, maximum: 65535 });
const optional = (schema: Schema): Schema => ({ ...schema, type: [schema.type as string, 'null'] });
/** A secret value: empty (not given) or at least `min` characters. */
const secret = (description: string, min: number): Schema => str(description, { anyOf: [{ maxLength: 0 }, { minLength: min }] });
const intOrPercent = (description: string): Schema => ({ type: ['integer', 'string', 'null'], description, pattern: '^[0-9]+%$' });

/** A file from one key of a Secret or a ConfigMap, mounted read-only (helm/trilha-common/templates/_files.tpl). */
const fileSource = (description: string): Schema =>
  obj(description, {
    secretName: str('Secret holding the file (or configMapName).'),
    configMapName: str('ConfigMap holding the file (or secretName).'),
    key: str('Key of the file in it.', { minLength: 1 }),
  });

const image = (repository: string): Schema =>
  obj('Container image: [registry/]repository[:tag][@digest].', {
    registry: str('Registry of the image (global.imageRegistry wins). Empty: the runtime default.'),
    repository: str(`Repository, e.g. ${repository}.`, { minLength: 1 }),
    tag: str('Tag. Empty: global.imageTag, else the chart appVersion.'),
    digest: str('sha256 digest pinning the exact image.', { pattern: '^$|^sha256:[a-f0-9]{64}$' }),
    pullPolicy: str('imagePullPolicy.', { enum: ['Always', 'IfNotPresent', 'Never'] }),
  });

const globalSchema = obj('Shared by every Trilha chart of the release; set once in the umbrella chart.', {
  imageRegistry: str('Registry put before every Trilha image repository.'),
  imageTag: str('Tag of every Trilha image whose image.tag is empty. Empty: the chart appVersion.'),
  imagePullSecrets: list('Names of docker-registry Secrets to pull the images.', { type: 'string' }),
  database: obj('PostgreSQL (external).', {
    url: str('postgresql://USER:PASSWORD@HOST:PORT/DATABASE URL (DATABASE_URL), stored in the chart Secret.', { pattern: '^$|^postgres(ql)?://' }),
    existingSecret: str('Existing Secret holding the URL (then url is ignored).'),
    existingSecretKey: str('Key of the URL in existingSecret.', { minLength: 1 }),
    poolSize: int('Connections per process (DATABASE_POOL_SIZE).', { minimum: 1, maximum: 200 }),
  }),
  kafka: obj('Kafka (external).', {
    brokers: str('Bootstrap brokers, comma-separated host:port (KAFKA_BROKERS). Required.', { pattern: '^$|^[^:\\s,]+:[0-9]+(\\s*,\\s*[^:\\s,]+:[0-9]+)*$' }),
    tls: obj('TLS to the brokers.', {
      enabled: bool('Connect over TLS (KAFKA_SSL).'),
      ca: fileSource('CA bundle (PEM) of the brokers certificates (KAFKA_SSL_CA_FILE). Empty: the system CAs.'),
    }),
    sasl: obj('SASL authentication.', {
      mechanism: str('KAFKA_SASL_MECHANISM. Empty: no SASL.', { enum: ['', 'plain', 'scram-sha-256', 'scram-sha-512'] }),
      username: str('KAFKA_SASL_USERNAME. Required with a mechanism.'),
      password: str('KAFKA_SASL_PASSWORD, stored in the chart Secret.'),
      existingSecret: str('Existing Secret holding the password (then password is ignored).'),
      existingSecretKey: str('Key of the password in existingSecret.', { minLength: 1 }),
    }),
  }),
  internalApiToken: secret('Token shared by the gateway and the services (INTERNAL_API_TOKEN), at least 32 characters.', 32),
  existingSecret: str('Existing Secret with keys internal-api-token, token-signing-secret, admin-api-key (optional), webhook-secret-keys.'),
  otel: obj('OpenTelemetry.', {
    endpoint: str('OTLP/HTTP endpoint of the traces (OTEL_EXPORTER_OTLP_ENDPOINT). Empty: not exported.'),
    sampler: str('Which traces are recorded (OTEL_TRACES_SAMPLER); each hop follows the decision its caller made, so a trace is whole or absent.', { enum: [...WHOLE_TRACE_SAMPLERS] }),
    samplerRatio: { type: 'number', description: 'Share of the traces begun here that are recorded, with parentbased_traceidratio (OTEL_TRACES_SAMPLER_ARG).', minimum: 0, maximum: 1 },
  }),
});

/** `config` of a chart: extra plain settings, with the known ones described. */
const config = (known: Record<string, string>): Schema => ({
  type: 'object',
  description: 'More settings as environment variables (plain). A name the chart already sets fails the render.',
  propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
  properties: Object.fromEntries(Object.entries(known).map(([name, description]) => [name, str(description)])),
  additionalProperties: { type: ['string', 'number', 'boolean'] },
});

interface ServiceChart {
  name: string;
  /** Container ports besides ops. */
  ports: Record<string, string>;
  /** Known `config` settings. */
  config: Record<string, string>;
  servicePort: string;
  allowFrom: string;
  extra?: Record<string, Schema>;
}

function serviceChartSchema(chart: ServiceChart): Schema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: `Values of the ${chart.name} chart`,
    ...obj(`Values of the ${chart.name} chart.`, {
      global: globalSchema,
      'trilha-common': libraryValues,
      nameOverride: str('Name of the objects instead of the chart name.'),
      fullnameOverride: str('Full name of the objects instead of <release>-<name>.'),
      commonLabels: stringMap('Labels added to every object.'),
      image: image(`trilha/${chart.name}`),
      imagePullSecrets: list('Names of docker-registry Secrets, added to global.imagePullSecrets.', { type: 'string' }),
      replicaCount: int('Replicas when neither autoscaling nor KEDA is enabled.', { minimum: 0 }),
      revisionHistoryLimit: int('ReplicaSets kept for rollback.', { minimum: 0 }),
      updateStrategy: k8s('Deployment strategy.'),
      logLevel: str('LOG_LEVEL.', { enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] }),
      database: obj('This service own database connection; empty: global.database.', {
        url: str('PostgreSQL URL of this service.', { pattern: '^$|^postgres(ql)?://' }),
        existingSecret: str('Existing Secret holding it.'),
        existingSecretKey: str('Key of the URL in existingSecret. Empty: database-url.'),
        poolSize: optional(int('DATABASE_POOL_SIZE of this service. Empty: global.database.poolSize.', { minimum: 1, maximum: 200 })),
      }),
      config: config(chart.config),
      extraEnv: list('Raw EnvVar entries.'),
      ports: obj('Container ports.', {
        ...Object.fromEntries(Object.entries(chart.ports).map(([name, description]) => [name, port(description)])),
        ops: port('Ops port: /healthz, /readyz, /metrics (OPS_PORT).'),
      }, { required: [...Object.keys(chart.ports), 'ops'] }),
      service: obj('The Service.', {
        type: str('Service type.', { enum: ['ClusterIP', 'NodePort', 'LoadBalancer'] }),
        port: port(chart.servicePort),
        annotations: stringMap('Annotations of the Service.'),
      }),
      serviceAccount: obj('ServiceAccount of the pods.', {
        create: bool('Create one.'),
        name: str('Its name. Empty: the fullname (or default when not created).'),
        annotations: stringMap('Annotations (e.g. workload identity).'),
      }),
      podAnnotations: stringMap('Annotations of the pods.'),
      podLabels: stringMap('Labels of the pods.'),
      podSecurityContext: k8s('Pod securityContext.'),
      securityContext: k8s('Container securityContext.'),
      resources: k8s('Container resources.'),
      startupProbe: k8s('Startup probe.'),
      livenessProbe: k8s('Liveness probe.'),
      readinessProbe: k8s('Readiness probe.'),
      lifecycle: k8s('Container lifecycle hooks.'),
      terminationGracePeriodSeconds: int('Seconds between SIGTERM and SIGKILL.', { minimum: 0 }),
      priorityClassName: str('PriorityClass of the pods.'),
      topologySpreadConstraints: list('Topology spread constraints; a labelSelector is added when missing.'),
      nodeSelector: stringMap('Node selector.'),
      tolerations: list('Tolerations.'),
      affinity: k8s('Affinity.'),
      extraVolumes: list('More volumes.'),
      extraVolumeMounts: list('More volume mounts.'),
      autoscaling: obj('HorizontalPodAutoscaler of this service.', {
        enabled: bool('Create the HPA (replicaCount is then ignored).'),
        minReplicas: int('Fewest replicas.', { minimum: 1 }),
        maxReplicas: int('Most replicas.', { minimum: 1 }),
        targetCPUUtilizationPercentage: optional(int('Average CPU utilisation target.', { minimum: 1 })),
        targetMemoryUtilizationPercentage: optional(int('Average memory utilisation target.', { minimum: 1 })),
        behavior: k8s('Scaling behavior.'),
      }),
      podDisruptionBudget: obj('PodDisruptionBudget, when more than one replica runs.', {
        enabled: bool('Create it.'),
        maxUnavailable: intOrPercent('Pods that may be down at once.'),
        minAvailable: intOrPercent('Pods that must stay up (wins over maxUnavailable).'),
      }),
      networkPolicy: obj('NetworkPolicy of the pods.', {
        enabled: bool('Create it.'),
        allowFrom: list(chart.allowFrom),
        metricsFrom: list('Peers allowed to the ops port (default: Prometheus pods in any namespace). Empty: anywhere.'),
        restrictEgress: bool('Limit egress to DNS, the chart known peers and extraEgress.'),
        extraEgress: list('NetworkPolicyEgressRule entries (PostgreSQL, Kafka, Redis).'),
      }),
      metrics: obj('Metrics.', {
        serviceMonitor: obj('ServiceMonitor (Prometheus Operator).', {
          enabled: bool('Create it.'),
          namespace: str('Its namespace. Empty: the release namespace.'),
          interval: str('Scrape interval.', { pattern: '^[0-9]+(ms|s|m|h)$' }),
          scrapeTimeout: str('Scrape timeout.', { pattern: '^[0-9]+(ms|s|m|h)$' }),
          labels: stringMap('Labels Prometheus selects ServiceMonitors by.'),
        }),
      }),
      migrations: obj('The migrations Job (pre-install/pre-upgrade hook).', {
        enabled: bool('Run main.js migrate before install and upgrade.'),
        backoffLimit: int('Retries of the Job.', { minimum: 0 }),
        activeDeadlineSeconds: int('Time limit of the Job.', { minimum: 1 }),
        serviceAccountName: str('ServiceAccount of the Job. Empty: the namespace default.'),
        resources: k8s('Resources of the Job container.'),
      }),
      ...chart.extra,
    }),
  };
}

const internalPort = { internal: 'Internal HTTP port the gateway forwards to (INTERNAL_PORT).' };
const internalService = (name: string, knownConfig: Record<string, string>, extra?: Record<string, Schema>): ServiceChart => ({
  name,
  ports: internalPort,
  config: knownConfig,
  servicePort: 'Port of the Service in front of the internal port.',
  allowFrom: 'Peers allowed to the internal port besides the release api-gateway pods.',
  extra,
});

/** Helm gives every dependency a key in the values, the library chart too (it reads none). */
const libraryValues = k8s('Values of the trilha-common library chart, which reads none.');

const keda = obj('KEDA ScaledObject scaling on the consumer lag (instead of autoscaling).', {
  enabled: bool('Create it (requires KEDA; excludes autoscaling.enabled).'),
  minReplicaCount: int('Fewest replicas.', { minimum: 0 }),
  maxReplicaCount: int('Most replicas (no more than the partitions of the topics consumed).', { minimum: 1 }),
  pollingInterval: int('Seconds between lag checks.', { minimum: 1 }),
  cooldownPeriod: int('Seconds before scaling to minReplicaCount.', { minimum: 1 }),
  lagThreshold: int('Target lag per replica.', { minimum: 1 }),
  activationLagThreshold: int('Lag above which the service scales up from zero.', { minimum: 0 }),
  consumerGroup: str('Consumer group whose lag is measured.', { minLength: 1 }),
  topic: str('Only this topic. Empty: every topic the group consumes.'),
});

const gateway: ServiceChart = {
  name: 'api-gateway',
  ports: { public: 'Public HTTP(S) port (PUBLIC_PORT).' },
  config: {},
  servicePort: 'Port of the Service in front of the public port.',
  allowFrom: 'Peers allowed to the public port (the ingress controller). Empty: anywhere.',
  extra: {
    tls: obj('TLS of the public port.', {
      terminatedByProxy: bool('An ingress terminates TLS (TLS_TERMINATED_BY_PROXY); false: the gateway serves TLS from tls.secretName.'),
      trustedProxies: str('Proxies whose X-Forwarded-* are believed (TRUSTED_PROXIES): addresses, CIDRs or loopback, linklocal, uniquelocal. Empty: none.'),
      secretName: str('kubernetes.io/tls Secret (tls.crt, tls.key) served by the gateway when terminatedByProxy is false.'),
    }),
    redis: obj('Redis of the rate-limit counters (REDIS_URL).', {
      url: str('redis:// or rediss:// URL, stored in the chart Secret.', { pattern: '^$|^rediss?://' }),
      existingSecret: str('Existing Secret holding the URL.'),
      existingSecretKey: str('Key of the URL in existingSecret.', { minLength: 1 }),
    }),
    publicBaseUrl: str('Required. https origin (and path) where the public reaches the gateway (PUBLIC_BASE_URL): the base of the store portal links, <publicBaseUrl>/portal/#…, e.g. https://api.example.com.', { pattern: '^$|^https://' }),
    tokenSigningSecret: secret('Secret signing the stores bearer tokens (TOKEN_SIGNING_SECRET), at least 32 characters.', 32),
    tokenTtlSeconds: int('Token lifetime (TOKEN_TTL_SECONDS).', { minimum: 60, maximum: 86400 }),
    adminApiKey: secret('Operator key (ADMIN_API_KEY), at least 16 characters. Empty: operator routes answer 404.', 16),
    rateLimitDefaultPerMinute: int('Limit per store and minute of endpoints without their own (RATE_LIMIT_DEFAULT_PER_MINUTE).', { minimum: 1 }),
    concurrentRequestsPerStore: int('Requests one store may have in flight to one service through one replica (CONCURRENT_REQUESTS_PER_STORE).', { minimum: 1, maximum: 128 }),
    upstreams: obj('Internal URLs of the services. Empty: http://<release>-<service>:8080.', {
      tracking: str('TRACKING_SERVICE_URL.', { pattern: '^$|^https?://' }),
      atendimento: str('ATENDIMENTO_SERVICE_URL.', { pattern: '^$|^https?://' }),
      delivery: str('DELIVERY_SERVICE_URL.', { pattern: '^$|^https?://' }),
    }),
    ingress: obj('Ingress of the public API and the public tracking page.', {
      enabled: bool('Create it.'),
      className: str('IngressClass.'),
      annotations: stringMap('Annotations of the Ingress.'),
      hosts: list('Hosts and paths.', obj('A host.', {
        host: str('Host name.', { minLength: 1 }),
        paths: list('Paths.', obj('A path.', {
          path: str('Path.', { minLength: 1 }),
          pathType: str('Path type.', { enum: ['Prefix', 'Exact', 'ImplementationSpecific'] }),
        })),
      })),
      tls: list('TLS of the hosts.', obj('Certificate of some hosts.', {
        secretName: str('kubernetes.io/tls Secret.', { minLength: 1 }),
        hosts: list('Hosts.', { type: 'string' }),
      })),
    }),
    tests: obj('The helm test Pod.', {
      resources: k8s('Resources of the test container.'),
    }),
  },
};

const trackingExtra = {
  publicBaseUrl: str('Required. https base URL of the public tracking page links (linkRastreio, PUBLIC_BASE_URL): the host whose /rastreio the gateway serves, e.g. https://rastreio.example.com.', { pattern: '^$|^https://' }),
};
const webhooks = obj('Webhook delivery.', {
  retrySchedule: str('WEBHOOK_RETRY_SCHEDULE: waits before each further attempt, at most 5, e.g. 10s,1m,5m,30m,2h. Empty: the service default.', { pattern: '^$|^\\s*[0-9.]+(ms|s|m|h)(\\s*,\\s*[0-9.]+(ms|s|m|h)){0,4}\\s*$' }),
  disableAfter: str('WEBHOOK_DISABLE_AFTER: how long every attempt must fail before the webhook is deactivated, e.g. 5d. Empty: the service default.', { pattern: '^$|^\\s*[0-9.]+(ms|s|m|h|d)\\s*$' }),
  secretOverlap: str('WEBHOOK_SECRET_OVERLAP: how long the previous secret still signs after a rotation, e.g. 24h. Empty: the service default.', { pattern: '^$|^\\s*[0-9.]+(ms|s|m|h|d)\\s*$' }),
  secretKeys: str('WEBHOOK_SECRET_KEYS (stored in the chart\'s Secret): keys the signing secrets are encrypted with at rest, id:base64(32 bytes), comma-separated; the first encrypts. Required unless global.existingSecret is set.', {
    pattern: '^$|^\\s*[A-Za-z0-9_-]{1,32}:[A-Za-z0-9+/_-]{43}=?\\s*(,\\s*[A-Za-z0-9_-]{1,32}:[A-Za-z0-9+/_-]{43}=?\\s*)*$',
  }),
  allowedCidrs: list('WEBHOOK_ALLOWED_CIDRS: networks webhook URLs may resolve to although not public. Empty in production.', { type: 'string', pattern: '^[0-9a-fA-F.:]+/[0-9]+$' }),
  ca: fileSource('WEBHOOK_CA_FILE: CA bundle (PEM) trusted for webhook TLS besides the system CAs.'),
});

const topicImage = image('trilha/api-gateway');

const umbrella: Schema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'Values of the trilha chart',
  ...obj('Values of the trilha umbrella chart.', {
    global: globalSchema,
    'trilha-common': libraryValues,
    commonLabels: stringMap('Labels added to the objects of the umbrella chart itself.'),
    'api-gateway': k8s('Values of the api-gateway chart (helm/api-gateway/values.yaml).'),
    'tracking-service': k8s('Values of the tracking-service chart (helm/tracking-service/values.yaml).'),
    'atendimento-service': k8s('Values of the atendimento-service chart (helm/atendimento-service/values.yaml).'),
    'delivery-service': k8s('Values of the delivery-service chart (helm/delivery-service/values.yaml).'),
    kafkaTopics: obj('The Kafka topics of Trilha.', {
      mode: str('job: a pre-install/pre-upgrade Job creates the missing topics; strimzi: KafkaTopic resources; none: you create them.', { enum: ['job', 'strimzi', 'none'] }),
      replicationFactor: int('Replication factor of every topic.', { minimum: 1 }),
      config: stringMap('Topic configuration of every topic (retention.ms=-1: events are kept forever).'),
      topics: list('The topics (libs/contracts/src/topics.ts).', obj('A topic.', {
        name: str('Topic name.', { minLength: 1 }),
        partitions: int('Partitions (the most consumer replicas that get work).', { minimum: 1 }),
      }, { required: ['name', 'partitions'] })),
      strimzi: obj('KafkaTopic resources (mode strimzi).', {
        clusterName: str('The Strimzi Kafka cluster (label strimzi.io/cluster).'),
        namespace: str('Namespace the Topic Operator watches. Empty: the release namespace.'),
        apiVersion: str('API version of KafkaTopic.', { enum: ['kafka.strimzi.io/v1beta2', 'kafka.strimzi.io/v1'] }),
      }),
      job: obj('The topics Job (mode job).', {
        image: topicImage,
        backoffLimit: int('Retries of the Job.', { minimum: 0 }),
        activeDeadlineSeconds: int('Time limit of the Job.', { minimum: 1 }),
        serviceAccountName: str('ServiceAccount of the Job. Empty: the namespace default.'),
        resources: k8s('Resources of the Job container.'),
        podSecurityContext: k8s('Pod securityContext.'),
        securityContext: k8s('Container securityContext.'),
      }),
    }),
    monitoring: obj('Alerts and dashboards (docs/DEPLOY.md, "Alerts and dashboards").', {
      runbookUrl: str('Where docs/RUNBOOKS.md is read; every alert links to it followed by the anchor of its section.', { minLength: 1 }),
      prometheusRule: obj('The alerts as a PrometheusRule (Prometheus Operator).', {
        enabled: { enum: ['auto', true, false], description: 'auto: when the cluster serves monitoring.coreos.com/v1; true: always; false: never.' },
        namespace: str('Its namespace. Empty: the release namespace.'),
        labels: stringMap('Labels Prometheus selects rules by.'),
      }),
      dashboards: obj('Grafana dashboards as ConfigMaps for the Grafana sidecar.', {
        enabled: bool('Create them.'),
        namespace: str('Their namespace. Empty: the release namespace.'),
        labels: stringMap('Labels the Grafana sidecar selects dashboards by (grafana_dashboard: "1").'),
        annotations: stringMap('Annotations, e.g. the sidecar folder annotation.'),
      }),
    }),
  }),
};

export const VALUES_SCHEMAS: Record<string, Schema> = {
  trilha: umbrella,
  'api-gateway': serviceChartSchema(gateway),
  'tracking-service': serviceChartSchema(internalService('tracking-service', {}, trackingExtra)),
  'atendimento-service': serviceChartSchema(internalService('atendimento-service', {})),
  'delivery-service': serviceChartSchema(internalService('delivery-service', {}, { webhooks, keda })),
};

/** The file content of a chart's values.schema.json. */
export const schemaFile = (chart: string): string => `${JSON.stringify(VALUES_SCHEMAS[chart], null, 2)}\n`;

if (require.main === module) {
  // Run from dist/tools/helm: the charts are in the repository's helm/.
  const helmDir = resolve(__dirname, '../../../helm');
  for (const chart of Object.keys(VALUES_SCHEMAS)) {
    writeFileSync(join(helmDir, chart, 'values.schema.json'), schemaFile(chart));
    process.stdout.write(`wrote helm/${chart}/values.schema.json\n`);
  }
}

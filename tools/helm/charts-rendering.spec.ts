/**
 * The Helm charts as an operator meets them, rendering and values: lint, render every scenario
 * (helm/<chart>/ci), check each object against the Kubernetes schemas (kubernetes-models), and the
 * values schemas. What operators rely on in the rendered objects is in charts-objects.spec.ts and
 * charts-security.spec.ts; the configuration contract test, which starts the services with the
 * rendered settings, is contract.serial.spec.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { LIBRARY, REPO_HELM_DIR, UMBRELLA, type K8sObject } from './helm';
import { chartsForTestFile } from './rendered-charts.fixture';
import { schemaFile, VALUES_SCHEMAS } from './values-schema';

const { charts, scenario, allScenarios } = chartsForTestFile();

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
    expect(charts().helmOrThrow(['lint', '--strict', charts().chartDir(LIBRARY)])).toContain('0 chart(s) failed');
  });

  it('passes for every chart with each of its scenarios', () => {
    const scenarios = allScenarios();
    expect(scenarios.length).toBeGreaterThanOrEqual(9);
    for (const [chart, values] of scenarios) {
      const result = charts().helm(['lint', '--strict', charts().chartDir(chart), '--values', join(charts().chartDir(chart), values)]);
      expect({ chart, values, status: result.status, output: result.stdout + result.stderr }).toMatchObject({ status: 0 });
    }
  });
});

describe('helm template', () => {
  it('with the default values alone fails, naming the value to set', () => {
    expect(charts().renderError(UMBRELLA)).toMatch(/global\.kafka\.brokers is required/);
  });

  it.each([
    ['global.kafka.brokers', 'global.kafka.brokers is required'],
    ['global.database.url', 'DATABASE_URL is required: set global.database.url (or global.database.existingSecret)'],
    ['global.internalApiToken', 'INTERNAL_API_TOKEN is required: set global.internalApiToken (or global.existingSecret)'],
    ['api-gateway.redis.url', 'REDIS_URL is required: set api-gateway.redis.url (or api-gateway.redis.existingSecret)'],
    ['api-gateway.publicBaseUrl', 'api-gateway.publicBaseUrl is required: the https origin where the public reaches the gateway'],
    ['api-gateway.tokenSigningSecret', 'TOKEN_SIGNING_SECRET is required: set api-gateway.tokenSigningSecret (or global.existingSecret)'],
    ['delivery-service.webhooks.secretKeys', 'WEBHOOK_SECRET_KEYS is required: set delivery-service.webhooks.secretKeys (or global.existingSecret)'],
  ])('without %s fails saying so', (value, message) => {
    expect(charts().renderError(UMBRELLA, { values: ['ci/minimal-values.yaml'], set: { [value]: '' } })).toContain(message);
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
    ['delivery-service', 'webhooks.secretKeys', 'k1:too-short', 'secretKeys'],
  ])('of %s rejects %s', (chart, key, value, message) => {
    const error = charts().renderError(chart, { values: ['ci/minimal-values.yaml'], set: { [key]: value } });
    expect(error).toContain('values don\'t meet the specifications of the schema');
    expect(error).toContain(message);
  });

  it('rejects a value of the wrong type', () => {
    const error = charts().helm([...charts().templateArgs(UMBRELLA, { values: ['ci/minimal-values.yaml'] }), '--set', 'api-gateway.replicaCount=two']);
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

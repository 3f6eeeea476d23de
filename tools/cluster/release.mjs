// Trilha's umbrella chart on the local cluster (deploy/cluster/cluster.mjs), installed as
// docs/DEPLOY.md tells a platform team to: the images loaded into the node, the release's values
// pointing at the cluster's Kafka, PostgreSQL, Redis and Zipkin, `helm install --wait` with its
// hooks (topics and migrations Jobs). The gateway serves TLS itself with a certificate for its
// Service's name; the same self-signed certificate is the CA of the webhook receivers the checks
// run on the bridge.
//
//   clusterTools(kubeconfig, dataDir)                 { helm(args), kubectl(args), json(args) }: promises, rejected on failure
//   installRelease({ cluster, dataDir, version, log }) { chart, valuesFile, installSeconds, ca, caFile, key, adminApiKey, gatewayUrl() }
import { spawn } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { selfSignedCertificate } from '../../deploy/local/certificates.mjs';
import { layerBinary } from '../helm/binaries.mjs';
import { imageName, SERVICE_IMAGES } from '../images/images.mjs';
import { localSecrets, SERVICES } from '../stack.mjs';

const root = resolve(import.meta.dirname, '../..');
export const NAMESPACE = 'trilha';
export const RELEASE = 'trilha';
/** The gateway's Service, by the name pods and the certificate know it. */
export const GATEWAY_HOST = `${RELEASE}-api-gateway.${NAMESPACE}.svc`;
const INSTALL_TIMEOUT = '10m';

/**
 * helm and kubectl on the cluster of `kubeconfig`, helm with a home of its own under dataDir.
 * Asynchronous: the checks keep serving their webhook receiver and sending load meanwhile.
 */
export function clusterTools(kubeconfig, dataDir) {
  const home = join(dataDir, 'helm-home');
  const env = { PATH: process.env.PATH, HOME: home, HELM_CACHE_HOME: join(home, 'cache'), HELM_CONFIG_HOME: join(home, 'config'), HELM_DATA_HOME: join(home, 'data'), KUBECONFIG: kubeconfig };
  const tool = (name) => (args, { input } = {}) => new Promise((resolvePromise, reject) => {
    const child = spawn(layerBinary(name), args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolvePromise(stdout) : reject(new Error(`${name} ${args.join(' ')}: ${stderr.trim()}`))));
    child.stdin.end(input);
  });
  const kubectl = tool('kubectl');
  return { helm: tool('helm'), kubectl, json: async (args) => JSON.parse(await kubectl([...args, '-o', 'json'])) };
}

/** The values of the release: the chart's defaults (two replicas of each service) but for where things are. */
function releaseValues({ cluster, secrets, version, tlsSecret, caConfigMap }) {
  const { infra, zipkin, network } = cluster;
  // Every service exports its spans to the cluster's Zipkin (plain settings, beside the chart's own).
  const traced = { config: { OTEL_EXPORTER_ZIPKIN_ENDPOINT: zipkin.spansUrl, OTEL_BSP_SCHEDULE_DELAY: '1000' } };
  return {
    global: {
      imageTag: version,
      imageRegistry: 'localhost',
      database: { url: infra.databaseUrl, poolSize: 5 },
      kafka: { brokers: infra.kafkaBrokers },
      internalApiToken: secrets.internalApiToken,
    },
    'api-gateway': {
      ...traced,
      redis: { url: infra.redisUrl },
      publicBaseUrl: `https://${GATEWAY_HOST}:8443`,
      tokenSigningSecret: secrets.tokenSigningSecret,
      adminApiKey: secrets.adminApiKey,
      tls: { terminatedByProxy: false, secretName: tlsSecret },
    },
    'tracking-service': { ...traced, publicBaseUrl: `https://${GATEWAY_HOST}:8443` },
    'atendimento-service': traced,
    // One replica, which the checks scale to three and back.
    'delivery-service': {
      ...traced,
      replicaCount: 1,
      // The receivers of the checks listen on the bridge's gateway address, with the release's certificate.
      webhooks: { secretKeys: secrets.webhookSecretKeys, allowedCidrs: [`${network.gateway}/32`], ca: { configMapName: caConfigMap, key: 'ca.crt' } },
    },
    // One broker.
    kafkaTopics: { replicationFactor: 1, config: { 'retention.ms': '-1', 'cleanup.policy': 'delete', 'min.insync.replicas': '1' } },
  };
}

/**
 * Loads the images into the node, creates the namespace, the gateway's TLS Secret and the
 * receivers' CA, and installs the chart (hooks included) with `helm install --wait`.
 */
export async function installRelease({ cluster, dataDir, version, log }) {
  const { helm, kubectl } = clusterTools(cluster.kubeconfig, dataDir);
  await cluster.node.loadImages(SERVICE_IMAGES.map((service) => `localhost/${imageName(service, version)}`));

  const tls = selfSignedCertificate(join(dataDir, 'tls'), 'trilha', 'cluster: the release certificate',
    [`DNS:${GATEWAY_HOST}`, `DNS:${GATEWAY_HOST}.cluster.local`, `IP:${cluster.network.gateway}`]);
  const tlsSecret = `${RELEASE}-api-tls`;
  const caConfigMap = `${RELEASE}-webhook-ca`;
  // Created or updated: `create --dry-run` renders the object, `apply` makes it so.
  for (const object of [
    ['namespace', NAMESPACE],
    ['secret', 'tls', tlsSecret, '-n', NAMESPACE, `--cert=${tls.cert}`, `--key=${tls.key}`],
    ['configmap', caConfigMap, '-n', NAMESPACE, `--from-file=ca.crt=${tls.cert}`],
  ]) await kubectl(['apply', '-f', '-'], { input: await kubectl(['create', ...object, '--dry-run=client', '-o', 'yaml']) });

  const secrets = localSecrets(dataDir);
  const valuesFile = join(dataDir, 'values.yaml');
  writeFileSync(valuesFile, stringify(releaseValues({ cluster, secrets, version, tlsSecret, caConfigMap })), { mode: 0o600 });

  // The charts with their dependencies built, in a copy: the working tree stays as it is.
  const charts = join(dataDir, 'charts');
  cpSync(join(root, 'helm'), charts, { recursive: true, filter: (source) => !/\/charts(\/|$)/.test(source.slice(join(root, 'helm').length)) });
  for (const chart of [...SERVICES, 'trilha']) await helm(['dependency', 'build', join(charts, chart)]);

  const started = Date.now();
  await helm(['upgrade', '--install', RELEASE, join(charts, 'trilha'), '--namespace', NAMESPACE, '--values', valuesFile, '--wait', '--timeout', INSTALL_TIMEOUT]);
  const installSeconds = (Date.now() - started) / 1000;
  log(`cluster: release ${RELEASE} installed, every Deployment Available, in ${installSeconds.toFixed(1)} s`);
  return {
    chart: join(charts, 'trilha'),
    valuesFile,
    installSeconds,
    ca: readFileSync(tls.cert),
    caFile: tls.cert,
    key: readFileSync(tls.key),
    adminApiKey: secrets.adminApiKey,
    /** The gateway's Service: its cluster address (kube-proxy routes it from this machine too). */
    gatewayUrl: async () => {
      const service = JSON.parse(await kubectl(['get', 'service', `${RELEASE}-api-gateway`, '-n', NAMESPACE, '-o', 'json']));
      return `https://${service.spec.clusterIP}:${service.spec.ports.find((port) => port.name === 'public').port}/v1`;
    },
  };
}

// `npm run cluster`, after `npm run images`: a single-node Kubernetes on this machine
// (deploy/cluster) with Trilha's umbrella chart installed on it (tools/cluster/release.mjs), in
// the foreground until Ctrl-C, which stops it all. Prints the kubeconfig, the gateway's Service
// and how to call it. Needs root. Data and logs in .trilha/cluster (TRILHA_CLUSTER_DIR), reused.
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startCluster } from '../../deploy/cluster/cluster.mjs';
import { layerBinary } from '../helm/binaries.mjs';
import { runOnSupportedNode } from '../runtime.mjs';
import { PORT_PROFILES, stackPorts } from '../stack.mjs';
import { GATEWAY_HOST, installRelease } from './release.mjs';

await runOnSupportedNode();

const root = resolve(import.meta.dirname, '../..');
const say = (line) => process.stderr.write(`» ${line}\n`);
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
const dataDir = resolve(root, process.env.TRILHA_CLUSTER_DIR ?? '.trilha/cluster');
mkdirSync(dataDir, { recursive: true });

let cluster;
try {
  cluster = await startCluster({ dataDir, ports: stackPorts(PORT_PROFILES.cluster), log: say });
  const release = await installRelease({ cluster, dataDir, version, log: say });
  const gateway = new URL(await release.gatewayUrl());
  process.stdout.write(`
Trilha on Kubernetes (Ctrl-C stops the cluster; its data stays in ${dataDir}):
  export KUBECONFIG=${cluster.kubeconfig}
  kubectl: ${layerBinary('kubectl')}    helm: ${layerBinary('helm')}
  gateway: https://${GATEWAY_HOST}:${gateway.port}/v1 (Service address ${gateway.hostname}), certificate ${release.caFile}
  admin key: ${release.adminApiKey}
  traces: ${cluster.zipkin.url}/zipkin/
  try:  curl --cacert ${release.caFile} --resolve ${GATEWAY_HOST}:${gateway.port}:${gateway.hostname} https://${GATEWAY_HOST}:${gateway.port}/v1/openapi.json
`);
} catch (error) {
  say(`cluster: ${error.message}`);
  await cluster?.stop();
  process.exit(1);
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    say('stopping the cluster');
    await cluster.stop();
    process.exit(0);
  });
}

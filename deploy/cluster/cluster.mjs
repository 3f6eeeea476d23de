// A single-node Kubernetes on this machine with what Trilha's chart needs beside it: the control
// plane (control-plane.mjs) and the node (node.mjs), and a Kafka, PostgreSQL, Redis and Zipkin of
// its own (deploy/local) listening on the pods' bridge, where every pod reaches them. They run on
// the host rather than in the cluster: no registry offers their images here, and the chart
// expects them outside the release, as a platform team's managed services are.
//
//   startCluster({ dataDir, ports, log })   { kubeconfig, api, infra, zipkin, node, network, stop() }
import path from 'node:path';
import { startInfra } from '../local/infra.mjs';
import { startZipkin } from '../local/zipkin.mjs';
import { startControlPlane } from './control-plane.mjs';
import { createPodNetwork, startNode } from './node.mjs';

/** Everything, or nothing: a part that fails stops the others, and the error names its log. */
export async function startCluster({ dataDir, ports, log }) {
  const network = createPodNetwork();
  const started = await Promise.allSettled([
    startInfra({ dataDir: path.join(dataDir, 'infra'), ports, host: network.gateway, log, fast: true }),
    startZipkin({ dataDir: path.join(dataDir, 'zipkin'), port: ports.zipkin, host: network.gateway, log }),
    startControlPlane({ dataDir: path.join(dataDir, 'control-plane'), ports: ports.kubernetes, log }),
  ]);
  const parts = started.filter((part) => part.status === 'fulfilled').map((part) => part.value);
  const stopParts = () => Promise.all(parts.map((part) => part.stop()));
  const failure = started.find((part) => part.status === 'rejected');
  if (failure) {
    await stopParts();
    throw failure.reason;
  }
  const [infra, zipkin, controlPlane] = parts;
  let node;
  try {
    node = await startNode({ dataDir: path.join(dataDir, 'node'), ports: ports.kubernetes, controlPlane, log });
  } catch (error) {
    await stopParts();
    throw error;
  }
  return {
    kubeconfig: controlPlane.kubeconfig,
    api: controlPlane.api,
    infra,
    zipkin,
    node,
    network,
    stop: async () => {
      await node.stop();
      await stopParts();
    },
  };
}

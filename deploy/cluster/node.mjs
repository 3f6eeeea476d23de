// The node of the single-node cluster: containerd (Debian's, with runc) and the CNI bridge
// plugins run the pods, the kubelet registers with the control plane (deploy/cluster/control-plane.mjs),
// kube-proxy gives Services their virtual addresses and CoreDNS their names. Pods live on a bridge
// of their own, 10.244.0.0/24, whose gateway address is this machine's: a host process listening
// there (Kafka, PostgreSQL, Redis, Zipkin, a webhook receiver) is reachable from every pod, and no
// traffic is routed off the machine. Needs root (network namespaces, iptables, mounts).
// Dependency-free: only node: builtins.
//
//   createPodNetwork()                                     the bridge and its gateway address, before anything binds to it
//   startNode({ dataDir, ports, controlPlane, log })       { loadImages(names), containerPid(id), stop() }
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { run, secs, sleep, which } from '../local/processes.mjs';
import { corednsBinary, kubernetesBinaries } from './binaries.mjs';
import { startComponent, stopAll } from './control-plane.mjs';

export const POD_NETWORK = Object.freeze({ bridge: 'trilha0', cidr: '10.244.0.0/24', gateway: '10.244.0.1' });
export const NODE_NAME = 'trilha-node';
/** The domain of the cluster's names, which CoreDNS on the bridge's gateway address answers for the pods. */
const CLUSTER_DOMAIN = 'cluster.local';
/** containerd's socket and runtime state: short paths (a unix socket's path is at most 107 bytes). */
const RUN_DIR = '/run/trilha-node';
/** The image of every pod's sandbox: any image whose command blocks will do (registry.k8s.io/pause is not reachable). */
const SANDBOX_IMAGE = 'localhost/trilha-pause:bookworm';
/** What it is made from: the local Debian base of `npm run images` (tools/images/bases.mjs). */
const SANDBOX_BASE = 'localhost/trilha-debian:bookworm-slim';
const CNI_BIN_DIR = '/usr/lib/cni';

function sh(command, args, { allowFailure = false } = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0 && !allowFailure) throw new Error(`${command} ${args.join(' ')}: ${(result.stderr || result.error?.message || '').trim()}`);
  return result;
}

/** What the node needs from the machine that `npm install` cannot bring, each with its Debian package. */
function checkMachine() {
  if (process.getuid?.() !== 0) throw new Error('cluster: the node needs root (network namespaces, iptables, mounts)');
  const missing = [['containerd', 'containerd'], ['runc', 'runc'], ['iptables', 'iptables'], ['ip', 'iproute2']]
    .filter(([command]) => !which(command)).map(([, pkg]) => pkg);
  if (!fs.existsSync(path.join(CNI_BIN_DIR, 'bridge'))) missing.push('containernetworking-plugins');
  if (missing.length) throw new Error(`cluster: the node needs ${missing.join(', ')}: apt-get install -y ${missing.join(' ')}`);
}

/**
 * The pods' bridge with the gateway address on it, packets forwarded between pods and through
 * iptables (kube-proxy's Service rules apply to traffic between two pods of the bridge too).
 * Idempotent. Listeners bound to the gateway address need it to exist first.
 */
export function createPodNetwork() {
  checkMachine();
  const { bridge, gateway, cidr } = POD_NETWORK;
  if (sh('ip', ['link', 'show', bridge], { allowFailure: true }).status !== 0) sh('ip', ['link', 'add', bridge, 'type', 'bridge']);
  if (!sh('ip', ['-4', 'addr', 'show', 'dev', bridge]).stdout.includes(`${gateway}/`)) sh('ip', ['addr', 'add', `${gateway}/${cidr.split('/')[1]}`, 'dev', bridge]);
  sh('ip', ['link', 'set', bridge, 'up']);
  fs.writeFileSync('/proc/sys/net/ipv4/ip_forward', '1');
  fs.writeFileSync('/proc/sys/net/bridge/bridge-nf-call-iptables', '1');
  return POD_NETWORK;
}

/** Mounts the kubelet and containerd left under `dir` (a pod's volumes, a container's rootfs), deepest first. */
function unmountUnder(dir) {
  const mounts = fs.readFileSync('/proc/self/mounts', 'utf8').split('\n').map((line) => line.split(' ')[1]?.replace(/\\040/g, ' '))
    .filter((point) => point && (point === dir || point.startsWith(`${dir}/`)));
  for (const point of mounts.sort((a, b) => b.length - a.length)) sh('umount', ['-l', point], { allowFailure: true });
}

/**
 * Kills what a node's run leaves when it stops (or left, killed): the pods' processes (in the
 * kubelet's cgroups), containerd's shims, and the pods' network namespaces (containerd's
 * `cni-…`, no process left in them) with their veths on the bridge.
 */
async function killPods() {
  const pids = new Set();
  const collect = (dir) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) collect(path.join(dir, entry.name));
      else if (entry.name === 'cgroup.procs') for (const pid of fs.readFileSync(path.join(dir, entry.name), 'utf8').split('\n').filter(Boolean)) pids.add(Number(pid));
    }
  };
  collect('/sys/fs/cgroup/pids/kubepods');
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim().startsWith('containerd-shim')) pids.add(Number(pid));
    } catch {
      // gone
    }
  }
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  // The kernel reaps them in a moment; a namespace with a process left is not ours to delete.
  await sleep(pids.size ? 1000 : 0);
  const namespaces = fs.existsSync('/run/netns') ? fs.readdirSync('/run/netns').filter((name) => name.startsWith('cni-')) : [];
  for (const namespace of namespaces) {
    if (!sh('ip', ['netns', 'pids', namespace], { allowFailure: true }).stdout.trim()) sh('ip', ['netns', 'delete', namespace], { allowFailure: true });
  }
}

function containerdConfig(dataDir) {
  return `version = 2
root = "${path.join(dataDir, 'containerd')}"
state = "${RUN_DIR}/containerd"
[grpc]
  address = "${RUN_DIR}/containerd.sock"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "${SANDBOX_IMAGE}"
  # The VM withholds CAP_SYS_RESOURCE: an oom_score_adj below the runtime's own fails the pod.
  restrict_oom_score_adj = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "${CNI_BIN_DIR}"
    conf_dir = "${path.join(dataDir, 'cni')}"
`;
}

function cniConfig(dataDir) {
  const { bridge, cidr, gateway } = POD_NETWORK;
  return JSON.stringify({
    cniVersion: '1.0.0',
    name: 'trilha',
    plugins: [
      {
        type: 'bridge', bridge, isGateway: true, ipMasq: false, hairpinMode: true,
        ipam: { type: 'host-local', ranges: [[{ subnet: cidr, gateway }]], routes: [{ dst: '0.0.0.0/0' }], dataDir: path.join(dataDir, 'cni-ipam') },
      },
      { type: 'portmap', capabilities: { portMappings: true } },
    ],
  }, null, 2);
}

function kubeletConfig(dataDir, ports, clientCa) {
  return `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
# The machines' cgroups are v1, without systemd as init; swap may be on.
cgroupDriver: cgroupfs
failCgroupV1: false
failSwapOn: false
containerRuntimeEndpoint: unix://${RUN_DIR}/containerd.sock
# On the bridge, the node's address: the API server reaches it for logs and exec.
address: ${POD_NETWORK.gateway}
port: ${ports.kubelet}
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: ${ports.kubeletHealthz}
clusterDomain: ${CLUSTER_DOMAIN}
clusterDNS: [${POD_NETWORK.gateway}]
resolvConf: ${path.join(dataDir, 'resolv.conf')}
podLogsDir: ${path.join(dataDir, 'pod-logs')}
# Only the API server holds a certificate of this CA (deploy/cluster/control-plane.mjs).
authentication: {anonymous: {enabled: false}, webhook: {enabled: false}, x509: {clientCAFile: ${clientCa}}}
authorization: {mode: AlwaysAllow}
serializeImagePulls: false
# A shared machine's disk: evict only when it is really full.
evictionHard: {memory.available: 100Mi, nodefs.available: 2%, imagefs.available: 2%}
imageGCHighThresholdPercent: 98
imageGCLowThresholdPercent: 97
`;
}

function kubeProxyConfig(kubeconfig, ports) {
  return `apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection: {kubeconfig: ${kubeconfig}}
hostnameOverride: ${NODE_NAME}
mode: iptables
clusterCIDR: ${POD_NETWORK.cidr}
bindAddress: 127.0.0.1
metricsBindAddress: 127.0.0.1:${ports.kubeProxyMetrics}
healthzBindAddress: 127.0.0.1:${ports.kubeProxyHealthz}
# The VM does not let the conntrack table be resized.
conntrack: {maxPerCore: 0}
`;
}

/** Names of the cluster, from the API; the rest refused (no query leaves the machine). */
function corefile(kubeconfig, ports) {
  return `.:53 {
  bind ${POD_NETWORK.gateway}
  errors
  ready 127.0.0.1:${ports.corednsReady}
  kubernetes ${CLUSTER_DOMAIN} in-addr.arpa ip6.arpa {
    kubeconfig ${kubeconfig} trilha
    pods insecure
  }
  cache 30
}
`;
}

/** Whether something answers on host:port over TCP. */
function listening(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
    socket.setTimeout(1000, () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/**
 * Starts containerd, the kubelet, kube-proxy and CoreDNS against `controlPlane` ({ kubeconfig,
 * api(path), kubeletClientCa }), each logging into dataDir, and waits until the node is Ready.
 * The node's address is the bridge's gateway, where the API server reaches the kubelet for
 * `kubectl logs` and `exec`.
 */
export async function startNode({ dataDir, ports, controlPlane, log }) {
  createPodNetwork();
  const bin = await kubernetesBinaries(log);
  const corednsBin = await corednsBinary(log);
  fs.mkdirSync(dataDir, { recursive: true });
  await killPods();
  unmountUnder(dataDir);
  unmountUnder(RUN_DIR);
  fs.mkdirSync(RUN_DIR, { recursive: true });
  const file = (name) => path.join(dataDir, name);
  fs.mkdirSync(file('cni'), { recursive: true });
  fs.writeFileSync(file('containerd.toml'), containerdConfig(dataDir));
  fs.writeFileSync(file('cni/10-trilha.conflist'), cniConfig(dataDir));
  fs.writeFileSync(file('kubelet.yaml'), kubeletConfig(dataDir, ports, controlPlane.kubeletClientCa));
  fs.writeFileSync(file('kube-proxy.yaml'), kubeProxyConfig(controlPlane.kubeconfig, ports));
  fs.writeFileSync(file('Corefile'), corefile(controlPlane.kubeconfig, ports));
  // Pods with dnsPolicy Default resolve nothing beyond the cluster: nothing outside is reachable.
  fs.writeFileSync(file('resolv.conf'), `nameserver ${POD_NETWORK.gateway}\n`);

  const procs = [];
  const ctr = (...args) => run('ctr', ['--address', `${RUN_DIR}/containerd.sock`, '--namespace', 'k8s.io', ...args], { timeoutMs: 10 * 60_000 });
  const stop = async () => {
    await stopAll(procs, log);
    await killPods();
    unmountUnder(dataDir);
    unmountUnder(RUN_DIR);
  };
  const start = (name, cmd, args, check) => startComponent({ name, cmd, args, dir: dataDir, check, log, procs });
  try {
    await start('containerd', 'containerd', ['--config', file('containerd.toml')], async () => (await ctr('version')).code === 0);
    await importImages(ctr, [sandboxImage(log)], dataDir, log);
    const kubeletStarted = Date.now();
    await start('kubelet', path.join(bin, 'kubelet'), [
      `--config=${file('kubelet.yaml')}`, `--kubeconfig=${controlPlane.kubeconfig}`, `--root-dir=${file('kubelet')}`,
      `--hostname-override=${NODE_NAME}`, `--node-ip=${POD_NETWORK.gateway}`,
    ], async () => {
      // Ready as this kubelet reports it: a node of an earlier run stays in etcd, Ready until it times out.
      const node = await controlPlane.api(`/api/v1/nodes/${NODE_NAME}`);
      return node?.status?.conditions?.some((condition) => condition.type === 'Ready' && condition.status === 'True'
        && Date.parse(condition.lastHeartbeatTime) >= Math.floor(kubeletStarted / 1000) * 1000);
    });
    await start('kube-proxy', path.join(bin, 'kube-proxy'), [`--config=${file('kube-proxy.yaml')}`],
      async () => (await fetch(`http://127.0.0.1:${ports.kubeProxyHealthz}/healthz`)).ok);
    await start('coredns', path.join(corednsBin, 'coredns'), ['-conf', file('Corefile')],
      async () => (await fetch(`http://127.0.0.1:${ports.corednsReady}/ready`)).ok && listening(POD_NETWORK.gateway, 53));
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    loadImages: (images) => importImages(ctr, images, dataDir, log),
    /** The host pid of a container's main process (a pod's status names the container `containerd://<id>`). */
    containerPid: async (containerId) => {
      const tasks = await ctr('tasks', 'ls');
      const line = tasks.out.split('\n').find((task) => task.startsWith(`${containerId} `));
      if (!line) throw new Error(`cluster: containerd runs no container ${containerId}`);
      return Number(line.trim().split(/\s+/)[1]);
    },
    stop,
  };
}

/** The sandbox image, made once from the local Debian base of `npm run images` (tools/images/bases.mjs). */
function sandboxImage(log) {
  if (sh('buildah', ['inspect', '--type', 'image', SANDBOX_IMAGE], { allowFailure: true }).status === 0) return SANDBOX_IMAGE;
  if (sh('buildah', ['inspect', '--type', 'image', SANDBOX_BASE], { allowFailure: true }).status !== 0) {
    throw new Error(`cluster: the pods' sandbox image is made from ${SANDBOX_BASE}: run \`npm run images\` first`);
  }
  const container = sh('buildah', ['from', '--quiet', SANDBOX_BASE]).stdout.trim();
  try {
    sh('buildah', ['config', '--entrypoint', '["/bin/sleep", "infinity"]', '--cmd', '', '--user', '65535:65535', container]);
    sh('buildah', ['commit', '--quiet', container, SANDBOX_IMAGE]);
  } finally {
    sh('buildah', ['rm', container], { allowFailure: true });
  }
  log(`cluster: made the sandbox image ${SANDBOX_IMAGE}`);
  return SANDBOX_IMAGE;
}

/** Copies images from podman's storage into containerd's, where the kubelet finds them (no registry here). */
async function importImages(ctr, images, dataDir, log) {
  const started = Date.now();
  const archive = path.join(dataDir, 'images.tar');
  try {
    sh('podman', ['save', '--quiet', '--multi-image-archive', '--format', 'docker-archive', '--output', archive, ...images]);
    const imported = await ctr('images', 'import', archive);
    if (imported.code !== 0) throw new Error(`ctr images import: ${imported.out.trim()}`);
  } finally {
    fs.rmSync(archive, { force: true });
  }
  log(`cluster: ${images.join(', ')} loaded into containerd (${secs(started)})`);
}

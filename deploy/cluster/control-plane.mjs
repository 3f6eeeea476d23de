// A Kubernetes control plane on this machine, without Docker or a registry: etcd, kube-apiserver,
// kube-controller-manager and kube-scheduler (deploy/cluster/binaries.mjs), on loopback. Alone it
// checks what a real API server checks of the charts: schemas, defaulting, admission; pods run
// once a node joins it (deploy/cluster/node.mjs). Dependency-free: only node: builtins.
//
//   startControlPlane({ dataDir, ports, log })      { kubeconfig, stop() }
//   startComponent({ name, cmd, args, dir, check, log, procs })   one process of a cluster, its log in dir
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { fileSize, launchUntilReady, secs, stopProc, tailFile } from '../local/processes.mjs';
import { kubernetesBinaries } from './binaries.mjs';

const START_TIMEOUT_MS = 120_000;

/**
 * The certificate the API server shows a kubelet (for logs, exec, port-forward) and the CA a
 * kubelet checks it against: no one else holds a certificate of that CA. Made once with openssl.
 */
function kubeletClientCertificate(dir) {
  const files = { ca: path.join(dir, 'kubelet-client-ca.crt'), cert: path.join(dir, 'kubelet-client.crt'), key: path.join(dir, 'kubelet-client.key') };
  if (fs.existsSync(files.cert)) return files;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const caKey = path.join(dir, 'kubelet-client-ca.key');
  const csr = path.join(dir, 'kubelet-client.csr');
  const openssl = (...args) => {
    const result = spawnSync('openssl', args, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`kube-apiserver: openssl could not make its kubelet client certificate (is openssl installed?):\n${result.stderr ?? result.error?.message}`);
  };
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '825', '-subj', '/CN=trilha-kubelet-client-ca', '-keyout', caKey, '-out', files.ca);
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/O=system:masters/CN=kube-apiserver', '-keyout', files.key, '-out', csr);
  // The certificate last: its presence means all the files are complete.
  openssl('x509', '-req', '-in', csr, '-CA', files.ca, '-CAkey', caKey, '-CAcreateserial', '-days', '825', '-out', `${files.cert}.tmp`);
  fs.renameSync(`${files.cert}.tmp`, files.cert);
  return files;
}

/** The body of a GET on the API server (parsed when JSON), or undefined when it does not answer 200 (not up, not found). */
function getJson(url, { ca, token }) {
  if (!fs.existsSync(ca)) return undefined;
  return new Promise((resolve) => {
    const request = https.get(url, { ca: fs.readFileSync(ca), headers: { authorization: `Bearer ${token}` } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => {
        if (response.statusCode !== 200) return resolve(undefined);
        try {
          resolve(JSON.parse(body));
        } catch {
          resolve(body);
        }
      });
    });
    request.on('error', () => resolve(undefined));
    request.setTimeout(2000, () => request.destroy());
  });
}

function kubeconfig({ server, caFile, token }) {
  return `apiVersion: v1
kind: Config
clusters:
- name: trilha
  cluster: {server: "${server}", certificate-authority: "${caFile}"}
users:
- name: admin
  user: {token: "${token}"}
contexts:
- name: trilha
  context: {cluster: trilha, user: admin}
current-context: trilha
`;
}

/**
 * Launches one process of a cluster, its log and pid file in `dir`, adds it to `procs` (stopped in
 * reverse order), and waits until `check(output)` is true, where `output()` is what the process
 * logged since it started; a failure names the log and shows its tail.
 */
export async function startComponent({ name, cmd, args, dir, check, log, procs, timeoutMs = START_TIMEOUT_MS }) {
  const started = Date.now();
  const logFile = path.join(dir, `${name}.log`);
  const offset = fileSize(logFile);
  const proc = await launchUntilReady({
    name, cmd, args, env: process.env, logFile, pidFile: path.join(dir, `${name}.pid`), stopSignal: 'SIGTERM', check, timeoutMs, log,
    describeFailure: () => `${name} did not start; its log is ${logFile}:\n${tailFile(logFile, offset)}`,
  });
  procs.push(proc);
  log(`${name}: ready (${secs(started)}, log ${logFile})`);
  return proc;
}

/** Stops `procs` in reverse order of their start. */
export async function stopAll(procs, log) {
  for (const proc of [...procs].reverse()) await stopProc(proc, log);
}

/**
 * Starts etcd, then kube-apiserver (its own self-signed certificate for 127.0.0.1, an admin token
 * in system:masters, service accounts signed by a key made here), then the controller manager
 * and the scheduler. Returns the kubeconfig's path, `api(path)` (the body of a GET, undefined
 * unless 200), the CA a kubelet trusts for the API server's calls (`kubeletClientCa`) and `stop()`.
 */
export async function startControlPlane({ dataDir, ports, log }) {
  const bin = await kubernetesBinaries(log);
  fs.mkdirSync(dataDir, { recursive: true });
  const file = (name) => path.join(dataDir, name);
  const procs = [];
  const stop = () => stopAll(procs, log);
  const start = (name, args, check) => startComponent({ name, cmd: path.join(bin, name), args, dir: dataDir, check, log, procs });
  try {
    await start('etcd', [
      `--data-dir=${file('etcd')}`, `--listen-client-urls=http://127.0.0.1:${ports.etcd}`, `--advertise-client-urls=http://127.0.0.1:${ports.etcd}`,
      `--listen-peer-urls=http://127.0.0.1:${ports.etcdPeer}`, `--initial-advertise-peer-urls=http://127.0.0.1:${ports.etcdPeer}`,
      `--initial-cluster=default=http://127.0.0.1:${ports.etcdPeer}`,
    ], async () => (await fetch(`http://127.0.0.1:${ports.etcd}/health`)).ok);

    if (!fs.existsSync(file('sa.key'))) {
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      fs.writeFileSync(file('sa.key'), privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
      fs.writeFileSync(file('sa.pub'), publicKey.export({ type: 'spki', format: 'pem' }));
      fs.writeFileSync(file('tokens.csv'), `${randomBytes(24).toString('hex')},admin,admin,system:masters\n`, { mode: 0o600 });
    }
    const token = fs.readFileSync(file('tokens.csv'), 'utf8').split(',')[0];
    const certDir = file('pki');
    const kubeletClient = kubeletClientCertificate(certDir);
    const api = (apiPath) => getJson(`https://127.0.0.1:${ports.apiserver}${apiPath}`, { ca: path.join(certDir, 'apiserver.crt'), token });
    await start('kube-apiserver', [
      `--etcd-servers=http://127.0.0.1:${ports.etcd}`, '--bind-address=127.0.0.1', '--advertise-address=127.0.0.1',
      `--secure-port=${ports.apiserver}`, `--cert-dir=${certDir}`, '--endpoint-reconciler-type=none',
      `--token-auth-file=${file('tokens.csv')}`, '--authorization-mode=RBAC', '--service-cluster-ip-range=10.96.0.0/16',
      `--service-account-key-file=${file('sa.pub')}`, `--service-account-signing-key-file=${file('sa.key')}`,
      `--service-account-issuer=https://127.0.0.1:${ports.apiserver}`,
      `--kubelet-client-certificate=${kubeletClient.cert}`, `--kubelet-client-key=${kubeletClient.key}`, '--kubelet-preferred-address-types=InternalIP',
    ], async () => (await api('/readyz')) !== undefined);
    const config = file('kubeconfig');
    fs.writeFileSync(config, kubeconfig({ server: `https://127.0.0.1:${ports.apiserver}`, caFile: path.join(certDir, 'apiserver.crt'), token }), { mode: 0o600 });
    await start('kube-controller-manager', [
      `--kubeconfig=${config}`, '--leader-elect=false', '--bind-address=127.0.0.1', `--secure-port=${ports.controllerManager}`,
      `--service-account-private-key-file=${file('sa.key')}`, '--use-service-account-credentials=true',
      `--root-ca-file=${path.join(certDir, 'apiserver.crt')}`,
    ], async (output) => output().includes('"Starting controller" controller="deployment"'));
    await start('kube-scheduler', [
      `--kubeconfig=${config}`, '--leader-elect=false', '--bind-address=127.0.0.1', `--secure-port=${ports.scheduler}`,
    ], async (output) => output().includes('Serving securely'));
    return { kubeconfig: config, api, kubeletClientCa: kubeletClient.ca, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

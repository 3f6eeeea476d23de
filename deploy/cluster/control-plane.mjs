// A Kubernetes control plane on this machine, without Docker or a registry: etcd, kube-apiserver,
// kube-controller-manager and kube-scheduler, built from their Go modules (the Go module proxy is
// reachable where container registries are not) once into
// ${XDG_CACHE_HOME:-~/.cache}/trilha/kubernetes-<version>/bin, outside the repository, as Kafka's
// jars are, and run on loopback. It checks what a real API server checks of the charts: schemas,
// defaulting, admission. It runs no pod: that takes a kubelet and a container runtime.
// Dependency-free: only node: builtins.
//
//   kubernetesBinaries(log)                         the binaries, built if missing (about 7 minutes on 2 cores)
//   startControlPlane({ dataDir, ports, log })      { kubeconfig, stop() }
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { launch, run, secs, stopProc, tailFile, waitReady, which } from '../local/processes.mjs';

export const KUBERNETES_VERSION = '1.37.2';
const ETCD_VERSION = '3.7.0';
/** The staging modules of k8s.io/kubernetes, each pinned to the release's v0 version (its go.mod replaces them with local paths). */
const STAGING_MODULES = [
  'api', 'apiextensions-apiserver', 'apimachinery', 'apiserver', 'cli-runtime', 'client-go', 'cloud-provider',
  'cluster-bootstrap', 'code-generator', 'component-base', 'component-helpers', 'controller-manager', 'cri-api',
  'cri-client', 'cri-streaming', 'csi-translation-lib', 'dynamic-resource-allocation', 'endpointslice', 'externaljwt',
  'kms', 'kube-aggregator', 'kube-controller-manager', 'kube-proxy', 'kube-scheduler', 'kubectl', 'kubelet', 'metrics',
  'mount-utils', 'pod-security-admission', 'sample-apiserver', 'sample-cli-plugin', 'sample-controller', 'streaming',
];
const COMMANDS = ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler'];
const START_TIMEOUT_MS = 120_000;

function cacheDir() {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'trilha', `kubernetes-${KUBERNETES_VERSION}`);
}

/**
 * The directory of etcd and the control plane's binaries: built in a scratch module whose go.mod
 * pins every staging module (`go install` of k8s.io/kubernetes refuses its replace directives),
 * in a temporary directory renamed into place, so a concurrent start never sees half of it.
 */
export async function kubernetesBinaries(log) {
  const bin = path.join(cacheDir(), 'bin');
  if ([...COMMANDS, 'etcd'].every((command) => fs.existsSync(path.join(bin, command)))) return bin;
  if (!which('go')) throw new Error('kubernetes: building the control plane needs Go 1.26 or later on PATH (https://go.dev/doc/install, or Debian\'s golang)');
  log(`kubernetes: building ${COMMANDS.join(', ')} ${KUBERNETES_VERSION} and etcd ${ETCD_VERSION} from the Go module proxy into ${bin} (about 7 minutes, once)`);
  const started = Date.now();
  const work = fs.mkdtempSync(`${cacheDir()}.partial-`);
  try {
    const replaces = STAGING_MODULES.map((module) => `replace k8s.io/${module} => k8s.io/${module} v0.${KUBERNETES_VERSION.split('.').slice(1).join('.')}`);
    fs.writeFileSync(path.join(work, 'go.mod'), `module trilha.local/kubernetes\n\ngo 1.26\n\n${replaces.join('\n')}\n`);
    fs.writeFileSync(
      path.join(work, 'tools.go'),
      `//go:build tools\n\npackage tools\n\nimport (\n\t_ "go.etcd.io/etcd/server/v3"\n${COMMANDS.map((command) => `\t_ "k8s.io/kubernetes/cmd/${command}"`).join('\n')}\n)\n`,
    );
    const go = async (...args) => {
      const result = await run('go', args, { cwd: work, timeoutMs: 30 * 60_000 });
      if (result.code !== 0) throw new Error(`go ${args.join(' ')} failed:\n${result.out.trim().split('\n').slice(-20).join('\n')}`);
    };
    await go('get', `k8s.io/kubernetes@v${KUBERNETES_VERSION}`, `go.etcd.io/etcd/server/v3@v${ETCD_VERSION}`);
    await go('mod', 'tidy');
    await go('build', '-ldflags=-s -w', '-o', 'bin/', ...COMMANDS.map((command) => `k8s.io/kubernetes/cmd/${command}`));
    await go('build', '-ldflags=-s -w', '-o', 'bin/etcd', 'go.etcd.io/etcd/server/v3');
    fs.mkdirSync(cacheDir(), { recursive: true });
    fs.renameSync(path.join(work, 'bin'), bin);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  log(`kubernetes: built in ${secs(started)}`);
  return bin;
}

/** Whether an HTTPS URL answers 200, trusting the certificate in `ca` once it exists. */
function answersOk(url, { ca, token }) {
  if (!fs.existsSync(ca)) return false;
  return new Promise((resolve) => {
    const request = https.get(url, { ca: fs.readFileSync(ca), headers: { authorization: `Bearer ${token}` } }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('error', () => resolve(false));
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
 * Starts etcd, then kube-apiserver (its own self-signed certificate for 127.0.0.1, an admin token
 * in system:masters, service accounts signed by a key made here), then the controller manager
 * and the scheduler. Returns the kubeconfig's path and `stop()`.
 */
export async function startControlPlane({ dataDir, ports, log }) {
  const bin = await kubernetesBinaries(log);
  fs.mkdirSync(dataDir, { recursive: true });
  const file = (name) => path.join(dataDir, name);
  const procs = [];
  const stop = async () => {
    for (const proc of procs.reverse()) await stopProc(proc, log);
  };
  const start = async (name, args, check) => {
    const started = Date.now();
    const logFile = file(`${name}.log`);
    const proc = launch({ name, cmd: path.join(bin, name), args, env: process.env, logFile, pidFile: file(`${name}.pid`), stopSignal: 'SIGTERM' });
    procs.push(proc);
    await waitReady({ proc, check, timeoutMs: START_TIMEOUT_MS, describeFailure: () => `see ${logFile}:\n${tailFile(logFile)}` });
    log(`${name}: ready (${secs(started)}, log ${logFile})`);
  };
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
    await start('kube-apiserver', [
      `--etcd-servers=http://127.0.0.1:${ports.etcd}`, '--bind-address=127.0.0.1', '--advertise-address=127.0.0.1',
      `--secure-port=${ports.apiserver}`, `--cert-dir=${certDir}`, '--endpoint-reconciler-type=none',
      `--token-auth-file=${file('tokens.csv')}`, '--authorization-mode=RBAC', '--service-cluster-ip-range=10.96.0.0/16',
      `--service-account-key-file=${file('sa.pub')}`, `--service-account-signing-key-file=${file('sa.key')}`,
      `--service-account-issuer=https://127.0.0.1:${ports.apiserver}`,
    ], () => answersOk(`https://127.0.0.1:${ports.apiserver}/readyz`, { ca: path.join(certDir, 'apiserver.crt'), token }));
    const config = file('kubeconfig');
    fs.writeFileSync(config, kubeconfig({ server: `https://127.0.0.1:${ports.apiserver}`, caFile: path.join(certDir, 'apiserver.crt'), token }), { mode: 0o600 });
    await start('kube-controller-manager', [
      `--kubeconfig=${config}`, '--leader-elect=false', '--bind-address=127.0.0.1', `--secure-port=${ports.controllerManager}`,
      `--service-account-private-key-file=${file('sa.key')}`, '--use-service-account-credentials=true',
      `--root-ca-file=${path.join(certDir, 'apiserver.crt')}`,
    ], async () => fs.readFileSync(file('kube-controller-manager.log'), 'utf8').includes('"Starting controller" controller="deployment"'));
    await start('kube-scheduler', [
      `--kubeconfig=${config}`, '--leader-elect=false', '--bind-address=127.0.0.1', `--secure-port=${ports.scheduler}`,
    ], async () => fs.readFileSync(file('kube-scheduler.log'), 'utf8').includes('Serving securely'));
    return { kubeconfig: config, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

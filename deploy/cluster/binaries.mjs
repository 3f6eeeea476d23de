// The binaries of a single-node Kubernetes, built from their Go modules (the Go module proxy is
// reachable where container registries are not) once into ${XDG_CACHE_HOME:-~/.cache}/trilha,
// outside the repository, as Kafka's jars are. Dependency-free: only node: builtins.
//
//   kubernetesBinaries(log)   etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kubelet, kube-proxy
//   corednsBinary(log)        CoreDNS, the cluster's DNS
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { run, secs, which } from '../local/processes.mjs';

export const KUBERNETES_VERSION = '1.37.2';
const ETCD_VERSION = '3.7.0';
const COREDNS_VERSION = '1.15.0';
/** The staging modules of k8s.io/kubernetes, each pinned to the release's v0 version (its go.mod replaces them with local paths). */
const STAGING_MODULES = [
  'api', 'apiextensions-apiserver', 'apimachinery', 'apiserver', 'cli-runtime', 'client-go', 'cloud-provider',
  'cluster-bootstrap', 'code-generator', 'component-base', 'component-helpers', 'controller-manager', 'cri-api',
  'cri-client', 'cri-streaming', 'csi-translation-lib', 'dynamic-resource-allocation', 'endpointslice', 'externaljwt',
  'kms', 'kube-aggregator', 'kube-controller-manager', 'kube-proxy', 'kube-scheduler', 'kubectl', 'kubelet', 'metrics',
  'mount-utils', 'pod-security-admission', 'sample-apiserver', 'sample-cli-plugin', 'sample-controller', 'streaming',
];
const COMMANDS = ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kubelet', 'kube-proxy'];
const GO_TIMEOUT_MS = 30 * 60_000;

const cacheDir = (name) => path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'trilha', name);

/**
 * Builds `names` into `<dir>/bin` with `build(work)`, in a temporary directory renamed into place,
 * so a concurrent start never sees half of it. Returns the bin directory.
 */
async function cachedBuild({ dir, names, what, minutes, log, build }) {
  const bin = path.join(dir, 'bin');
  if (names.every((name) => fs.existsSync(path.join(bin, name)))) return bin;
  if (!which('go')) throw new Error(`kubernetes: building ${what} needs Go 1.26 or later on PATH (https://go.dev/doc/install, or Debian's golang)`);
  log(`kubernetes: building ${what} from the Go module proxy into ${bin} (about ${minutes} minutes, once)`);
  const started = Date.now();
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const work = fs.mkdtempSync(`${dir}.partial-`);
  try {
    const go = async (...args) => {
      const result = await run('go', args, { cwd: work, timeoutMs: GO_TIMEOUT_MS, env: { ...process.env, GOBIN: path.join(work, 'bin') } });
      if (result.code !== 0) throw new Error(`go ${args.join(' ')} failed:\n${result.out.trim().split('\n').slice(-20).join('\n')}`);
    };
    await build(go, work);
    fs.rmSync(bin, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    fs.renameSync(path.join(work, 'bin'), bin);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  log(`kubernetes: ${what} built in ${secs(started)}`);
  return bin;
}

/**
 * The directory of etcd and the Kubernetes binaries: built in a scratch module whose go.mod pins
 * every staging module (`go install` of k8s.io/kubernetes refuses its replace directives).
 */
export function kubernetesBinaries(log) {
  return cachedBuild({
    dir: cacheDir(`kubernetes-${KUBERNETES_VERSION}`),
    names: [...COMMANDS, 'etcd'],
    what: `${COMMANDS.join(', ')} ${KUBERNETES_VERSION} and etcd ${ETCD_VERSION}`,
    minutes: 12,
    log,
    build: async (go, work) => {
      const replaces = STAGING_MODULES.map((module) => `replace k8s.io/${module} => k8s.io/${module} v0.${KUBERNETES_VERSION.split('.').slice(1).join('.')}`);
      fs.writeFileSync(path.join(work, 'go.mod'), `module trilha.local/kubernetes\n\ngo 1.26\n\n${replaces.join('\n')}\n`);
      fs.writeFileSync(
        path.join(work, 'tools.go'),
        `//go:build tools\n\npackage tools\n\nimport (\n\t_ "go.etcd.io/etcd/server/v3"\n${COMMANDS.map((command) => `\t_ "k8s.io/kubernetes/cmd/${command}"`).join('\n')}\n)\n`,
      );
      await go('get', `k8s.io/kubernetes@v${KUBERNETES_VERSION}`, `go.etcd.io/etcd/server/v3@v${ETCD_VERSION}`);
      await go('mod', 'tidy');
      await go('build', '-ldflags=-s -w', '-o', 'bin/', ...COMMANDS.map((command) => `k8s.io/kubernetes/cmd/${command}`));
      await go('build', '-ldflags=-s -w', '-o', 'bin/etcd', 'go.etcd.io/etcd/server/v3');
    },
  });
}

/** The plugins of the node's Corefile (node.mjs), in CoreDNS's own order (its plugin.cfg), which is the order a query meets them. */
const COREDNS_PLUGINS = ['bind', 'ready', 'errors', 'cache', 'kubernetes'];

/**
 * The directory of CoreDNS, built with only the plugins the node's Corefile uses: its own `main`
 * sets CoreDNS's directives (CoreDNS's documented way to choose plugins at compile time), so the
 * build leaves out the cloud providers' SDKs the full binary carries.
 */
export function corednsBinary(log) {
  return cachedBuild({
    dir: cacheDir(`coredns-${COREDNS_VERSION}`),
    names: ['coredns'],
    what: `CoreDNS ${COREDNS_VERSION} (${COREDNS_PLUGINS.join(', ')})`,
    minutes: 2.5,
    log,
    build: async (go, work) => {
      fs.writeFileSync(path.join(work, 'go.mod'), 'module trilha.local/coredns\n\ngo 1.26\n');
      fs.writeFileSync(path.join(work, 'main.go'), `package main

import (
\t"github.com/coredns/coredns/core/dnsserver"
\t"github.com/coredns/coredns/coremain"
${COREDNS_PLUGINS.map((plugin) => `\t_ "github.com/coredns/coredns/plugin/${plugin}"`).join('\n')}
)

func init() {
\tdnsserver.Directives = []string{${COREDNS_PLUGINS.map((plugin) => `"${plugin}"`).join(', ')}}
}

func main() {
\tcoremain.Run()
}
`);
      // `go get` of the packages main.go imports records what building them needs, and no more
      // (`go mod tidy` would download their tests' dependencies too).
      const packages = ['core/dnsserver', 'coremain', ...COREDNS_PLUGINS.map((plugin) => `plugin/${plugin}`)];
      await go('get', ...packages.map((pkg) => `github.com/coredns/coredns/${pkg}@v${COREDNS_VERSION}`));
      await go('build', '-ldflags=-s -w', '-o', 'bin/coredns', '.');
    },
  });
}

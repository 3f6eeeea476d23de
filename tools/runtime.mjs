// The Node.js runtime every Trilha process runs on: the LTS line NODE_MAJOR, in active support
// (Node.js 20 left support in April 2026). Where the machine's node is another line, `npm start`,
// `npm test` and the benchmarks run themselves again on the official binary of NODE_VERSION,
// which the npm registry publishes as node-linux-<arch>: fetched once into
// ${XDG_CACHE_HOME:-~/.cache}/trilha/node-<version>/, outside the repository, as Kafka's jars are.
// Every process they start (services, tests, replicas) inherits it. The images use the same line.
// Dependency-free: only node: builtins.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export const NODE_VERSION = '24.21.0';
export const NODE_MAJOR = Number(NODE_VERSION.split('.')[0]);

const say = (line) => process.stderr.write(`» ${line}\n`);

function cacheDir() {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'trilha', `node-${NODE_VERSION}`);
}

/**
 * Unpacks a package of the npm registry into `dir` (`npm pack` checks the registry's integrity
 * hash): its `package` directory, holding only `members` (paths in the tarball) when given.
 */
export function unpackFromRegistry(spec, dir, members = []) {
  const pack = spawnSync('npm', ['pack', spec, '--pack-destination', dir, '--silent'], { encoding: 'utf8' });
  if (pack.status !== 0) throw new Error(`npm pack ${spec} failed: ${pack.stderr.trim()}`);
  const tarball = join(dir, pack.stdout.trim().split('\n').pop());
  const untar = spawnSync('tar', ['-xzf', tarball, '-C', dir, ...members], { encoding: 'utf8' });
  if (untar.status !== 0) throw new Error(`unpacking ${tarball} failed: ${untar.stderr.trim()}`);
  return join(dir, 'package');
}

const onSupportedLine = () => Number(process.versions.node.split('.')[0]) === NODE_MAJOR;

/** The node binary to run Trilha with: this process's own on the NODE_MAJOR line, otherwise the official one. */
export function supportedNode() {
  return onSupportedLine() ? process.execPath : officialNode();
}

/**
 * The official node binary of NODE_VERSION, fetched with `npm pack` (which checks the registry's
 * integrity hash) into a temporary directory and renamed into place, so a concurrent start never
 * sees half of it.
 */
export function officialNode() {
  const binary = join(cacheDir(), 'bin', 'node');
  if (existsSync(binary)) return binary;
  const arch = { x64: 'x64', arm64: 'arm64' }[process.arch];
  if (process.platform !== 'linux' || !arch) {
    say(`Node.js ${NODE_MAJOR} is needed: install it (this machine is ${process.platform}/${process.arch}, whose binary the npm registry does not carry)`);
    process.exit(1);
  }
  const pkg = `node-linux-${arch}@${NODE_VERSION}`;
  say(`fetching Node.js ${NODE_VERSION} (${pkg} from the npm registry) into ${cacheDir()}`);
  mkdirSync(dirname(cacheDir()), { recursive: true });
  const work = mkdtempSync(`${cacheDir()}.partial-`);
  try {
    const unpacked = unpackFromRegistry(pkg, work, ['package/bin/node']);
    chmodSync(join(unpacked, 'bin/node'), 0o755);
    mkdirSync(cacheDir(), { recursive: true });
    renameSync(join(unpacked, 'bin'), join(cacheDir(), 'bin'));
  } catch (error) {
    say(error.message);
    process.exit(1);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return binary;
}

/**
 * Returns at once on Node.js NODE_MAJOR. On another line, runs this same command on the supported
 * binary (first on PATH, so the `node` and `npm` it starts use it too) and exits with its code;
 * Ctrl-C reaches the child through the terminal's process group, a SIGTERM is passed on.
 */
export async function runOnSupportedNode() {
  if (onSupportedLine()) return;
  const node = supportedNode();
  const child = spawn(node, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, PATH: `${dirname(node)}:${process.env.PATH}` },
  });
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  const code = await new Promise((done) => child.on('exit', (exitCode, signal) => done(exitCode ?? (signal ? 128 : 1))));
  process.exit(code);
}

// The Dockerfile's two bases for buildah, where Docker Hub cannot be reached: the same images,
// built here from Debian's packages and the official Node.js binary, once (kept in buildah's
// storage until removed).
//   debian:bookworm-slim   → localhost/trilha-debian:bookworm-slim, a Debian 12 rootfs made by
//                            mmdebstrap: the essential packages, passwd (useradd) and libstdc++6
//                            (node), without docs, man pages or locales, as Debian's slim images;
//   node:24-bookworm-slim  → localhost/trilha-node:<version>-bookworm-slim, that plus the official
//                            node binary of tools/runtime.mjs (debug symbols stripped: 18 MB less,
//                            the same code) and npm, in /usr/local as in Node.js's own images.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NODE_VERSION, officialNode, unpackFromRegistry } from '../runtime.mjs';

const OFFICIAL = { NODE_IMAGE: `docker.io/library/node:${NODE_VERSION.split('.')[0]}-bookworm-slim`, DEBIAN_IMAGE: 'docker.io/library/debian:bookworm-slim' };
const LOCAL = { NODE_IMAGE: `localhost/trilha-node:${NODE_VERSION}-bookworm-slim`, DEBIAN_IMAGE: 'localhost/trilha-debian:bookworm-slim' };
/** The npm line that Node.js 24 ships with. */
const NPM_VERSION = '11.21.2';
const DPKG_EXCLUDES = ['/usr/share/man/*', '/usr/share/locale/*', '/usr/share/doc/*', '/usr/share/info/*'];
const DPKG_INCLUDES = ['/usr/share/locale/locale.alias', '/usr/share/doc/*/copyright'];

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${(result.stderr ?? '').trim().split('\n').slice(-5).join('\n')}`);
  return (result.stdout ?? '').trim();
}
const present = (image) => spawnSync('buildah', ['inspect', '--type', 'image', image], { stdio: 'ignore' }).status === 0;
const pulled = (image) => present(image) || spawnSync('buildah', ['pull', '--quiet', image], { stdio: 'ignore' }).status === 0;
const hasCommand = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

/** The build arguments naming the bases: none when Docker Hub's answer, otherwise the local ones, built if missing. */
export async function localBases(say) {
  if (Object.values(OFFICIAL).every(pulled)) return {};
  if (present(LOCAL.DEBIAN_IMAGE) && present(LOCAL.NODE_IMAGE)) return LOCAL;
  const missing = ['mmdebstrap', 'strip'].filter((command) => !hasCommand(command));
  if (missing.length > 0) {
    say(`Docker Hub is not reachable and the local bases need ${missing.join(' and ')}: apt-get install mmdebstrap binutils`);
    process.exit(1);
  }
  const work = mkdtempSync(join(tmpdir(), 'trilha-bases-'));
  try {
    say(`Docker Hub is not reachable: building ${LOCAL.DEBIAN_IMAGE} with mmdebstrap (about a minute)`);
    const rootfs = join(work, 'rootfs.tar');
    run('mmdebstrap', [
      '--quiet', '--variant=essential', '--include=passwd,libstdc++6', '--hook-dir=/usr/share/mmdebstrap/hooks/merged-usr',
      ...DPKG_EXCLUDES.map((path) => `--dpkgopt=path-exclude=${path}`), ...DPKG_INCLUDES.map((path) => `--dpkgopt=path-include=${path}`),
      'bookworm', rootfs,
    ]);
    const debian = run('buildah', ['from', 'scratch']);
    run('buildah', ['add', debian, rootfs, '/']);
    run('buildah', ['config', '--env', 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', '--cmd', 'bash', debian]);
    run('buildah', ['commit', '--rm', '--quiet', debian, LOCAL.DEBIAN_IMAGE]);

    say(`building ${LOCAL.NODE_IMAGE}: Node.js ${NODE_VERSION} and npm ${NPM_VERSION}`);
    const node = join(work, 'node');
    run('cp', [officialNode(), node]);
    run('strip', [node]);
    const npm = unpackFromRegistry(`npm@${NPM_VERSION}`, work);
    const image = run('buildah', ['from', '--pull=never', LOCAL.DEBIAN_IMAGE]);
    run('buildah', ['copy', image, node, '/usr/local/bin/node']);
    run('buildah', ['copy', image, npm, '/usr/local/lib/node_modules/npm']);
    run('buildah', ['run', '--isolation', 'chroot', image, '--', 'sh', '-c',
      'ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx && node --version && npm --version']);
    run('buildah', ['config', '--env', `NODE_VERSION=${NODE_VERSION}`, '--cmd', 'node', image]);
    run('buildah', ['commit', '--rm', '--quiet', image, LOCAL.NODE_IMAGE]);
  } catch (error) {
    say(error.message);
    process.exit(1);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return LOCAL;
}

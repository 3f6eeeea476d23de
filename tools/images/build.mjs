// `npm run images`: the four service images from deploy/docker/Dockerfile, with whatever builder
// the machine has: Docker with BuildKit, otherwise buildah. Each image is tagged
// trilha/<service>:<package version> (the charts' repositories; their tag defaults to the chart's
// appVersion, the same version) and labelled with the version, licence, commit and repository.
//
// The Dockerfile's bases (node:24-bookworm-slim to build, debian:bookworm-slim to run) come from
// Docker Hub. Where no registry answers, buildah builds the same two locally (bases.mjs) and the
// same Dockerfile runs on them.
//
//   npm run images [-- <service>…]     prints each image's build time and size
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { localBases } from './bases.mjs';
import { IMAGE_SIZE_LIMIT, imageName, imageSize, SERVICE_IMAGES } from './images.mjs';

const root = resolve(import.meta.dirname, '../..');
const say = (line) => process.stderr.write(`» ${line}\n`);
const succeeds = (command, args) => spawnSync(command, args, { stdio: 'ignore' }).status === 0;

const services = process.argv.slice(2);
const unknown = services.filter((service) => !SERVICE_IMAGES.includes(service));
if (unknown.length > 0) {
  say(`unknown service ${unknown.join(', ')}: one of ${SERVICE_IMAGES.join(', ')}`);
  process.exit(2);
}

const builder = succeeds('docker', ['buildx', 'version']) ? 'docker' : succeeds('buildah', ['--version']) ? 'buildah' : null;
if (!builder) {
  say('no image builder on this machine: install Docker with BuildKit (docker buildx), or buildah (apt-get install buildah)');
  process.exit(1);
}

const git = (...args) => spawnSync('git', args, { cwd: root, encoding: 'utf8' }).stdout?.trim() || 'unknown';
const { version, license } = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
const labels = { VERSION: version, LICENSES: license, REVISION: git('rev-parse', 'HEAD'), SOURCE: git('remote', 'get-url', 'origin') };

// A CA bundle npm trusts besides its own (a registry behind a TLS-inspecting proxy) reaches
// `npm ci` as the build secret npm_ca, never as a layer.
const npmCa = [process.env.NODE_EXTRA_CA_CERTS, spawnSync('npm', ['config', 'get', 'cafile'], { encoding: 'utf8' }).stdout?.trim()]
  .find((file) => file && file !== 'null' && existsSync(file));

// buildah's RUN steps get 1,024 open files by default, which npm ci exhausts reading its cache:
// they get this process's hard limit (no step may raise it further).
const openFiles = spawnSync('sh', ['-c', 'ulimit -Hn'], { encoding: 'utf8' }).stdout.trim();

const bases = builder === 'buildah' ? await localBases(say) : {};
say(`building with ${builder}${bases.NODE_IMAGE ? ` on ${bases.NODE_IMAGE} and ${bases.DEBIAN_IMAGE}` : ''}`);

const results = [];
for (const service of services.length > 0 ? services : SERVICE_IMAGES) {
  const started = Date.now();
  const buildArgs = Object.entries({ SERVICE: service, ...labels, ...bases }).flatMap(([name, value]) => ['--build-arg', `${name}=${value}`]);
  const common = ['-f', 'deploy/docker/Dockerfile', ...buildArgs, ...(npmCa ? ['--secret', `id=npm_ca,src=${npmCa}`] : []), '-t', imageName(service, version), '.'];
  const args = builder === 'docker' ? ['build', ...common] : ['bud', '--isolation', 'chroot', '--layers', '--pull=never', '--ulimit', `nofile=${openFiles}:${openFiles}`, ...common];
  say(`${service}: ${builder} ${args.join(' ')}`);
  const build = spawnSync(builder, args, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DOCKER_BUILDKIT: '1' } });
  if (build.status !== 0) {
    say(`${service}: the build failed (exit ${build.status})`);
    process.exit(1);
  }
  results.push({ service, seconds: (Date.now() - started) / 1000, bytes: imageSize(builder, imageName(service, version)) });
}

const mb = (bytes) => (bytes / 1e6).toFixed(0);
for (const { service, seconds, bytes } of results) say(`${imageName(service, version)}: ${mb(bytes)} MB, built in ${seconds.toFixed(0)} s`);
const tooLarge = results.filter(({ bytes }) => bytes > IMAGE_SIZE_LIMIT);
if (tooLarge.length > 0) {
  say(`over ${mb(IMAGE_SIZE_LIMIT)} MB: ${tooLarge.map(({ service }) => service).join(', ')}`);
  process.exit(1);
}

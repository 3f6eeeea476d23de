// The service images: their names, their size, and the limit the build holds them to.
import { spawnSync } from 'node:child_process';
import { SERVICES } from '../stack.mjs';

/** One image per service, from the same Dockerfile. */
export const SERVICE_IMAGES = SERVICES;

/** Uncompressed, as `docker images` shows it: the base, node, the pruned dependencies and the build. */
export const IMAGE_SIZE_LIMIT = 250e6;

/** trilha/<service>:<version>, the repository the charts name; buildah and podman keep it as localhost/trilha/…. */
export const imageName = (service, version) => `trilha/${service}:${version}`;

/** The image's uncompressed size in bytes. */
export function imageSize(builder, name) {
  const tool = builder === 'docker' ? 'docker' : 'podman';
  const inspect = spawnSync(tool, ['image', 'inspect', '--format', '{{.Size}}', name], { encoding: 'utf8' });
  if (inspect.status !== 0) throw new Error(`${tool} image inspect ${name}: ${inspect.stderr.trim()}`);
  return Number(inspect.stdout.trim());
}

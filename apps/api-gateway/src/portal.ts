import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';

/** Where the portal is served, under /portal/ (outside /v1, without a token: its page opens a session from the link); /portal redirects there. */
const PORTAL_PREFIX = '/portal';

/**
 * The page runs only its own scripts and styles, talks only to this origin, is framed by no
 * one, and sends no Referer (its URL's fragment carries the link's secret until it is used).
 */
export const PORTAL_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
} as const;

/** Assets carry a hash of their content in their name: a new build is new names, so a copy is good forever. */
const ASSET_CACHE = 'public, max-age=31536000, immutable';
/** The page names the assets of its build: asked again (a 304 when unchanged) on every visit. */
const PAGE_CACHE = 'no-cache';

/**
 * Serves the portal app at /portal/ from `dir` (PORTAL_DIR: the page, its assets with content
 * hashes in their names, and a `.br` and `.gz` beside each), precompressed files first when the client
 * accepts them (Brotli, then gzip). Without `dir/index.html` (a build without the portal)
 * nothing is served: /portal/ is a 404 like any unknown path. The gateway's security headers
 * (HSTS, nosniff) come from its request hooks, as on every answer.
 */
export async function servePortal(app: NestFastifyApplication, dir: string): Promise<boolean> {
  if (!existsSync(join(dir, 'index.html'))) return false;
  const assets = join(dir, 'assets') + sep;
  await app.register(fastifyStatic, {
    root: dir,
    prefix: PORTAL_PREFIX,
    preCompressed: true,
    index: ['index.html'],
    redirect: true,
    decorateReply: false,
    cacheControl: false,
    dotfiles: 'deny',
    // Only what the build wrote to be served: not the compressed copies by their own names.
    allowedPath: (path) => !/\.(br|gz)$/.test(path),
    setHeaders(reply, path) {
      reply.header('Cache-Control', path.startsWith(assets) ? ASSET_CACHE : PAGE_CACHE);
      for (const [name, value] of Object.entries(PORTAL_HEADERS)) reply.header(name, value);
    },
  });
  return true;
}

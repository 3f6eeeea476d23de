import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { resolve } from 'node:path';

/** Written by the build (apps/portal/build.mjs): index.html and hashed assets, each with .br and .gz beside it. */
export const PORTAL_DIR = resolve(__dirname, '../../../portal');

/**
 * The portal's policy: its own script and style sheet only (no inline code, no other origin),
 * calls to this origin's API only, no framing, no Referer (a link's secret never leaves in one).
 */
export const PORTAL_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * The store portal at `/portal/` (outside /v1, no token: the page itself holds nothing; its
 * calls to the API carry the portal session). index.html is revalidated on every load
 * (`no-cache`), so a new build reaches the next visit; assets have a content hash in their names
 * and are cached for a year. Each file is sent precompressed when the browser accepts it.
 */
export async function servePortal(app: NestFastifyApplication, root = PORTAL_DIR): Promise<void> {
  await app.register(fastifyStatic, {
    root,
    prefix: '/portal/',
    redirect: true,
    preCompressed: true,
    index: ['index.html'],
    cacheControl: false,
    // Only what the build wrote to be served: not the compressed copies by their own names.
    allowedPath: (path) => !/\.(br|gz)$/.test(path),
    setHeaders: (reply, path) => {
      reply.header('Cache-Control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      reply.header('Content-Security-Policy', PORTAL_CSP);
      reply.header('Referrer-Policy', 'no-referrer');
    },
  });
}

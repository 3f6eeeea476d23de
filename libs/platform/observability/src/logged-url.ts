/**
 * The public tracking page's token (`/rastreio/<token>`) lets anyone see the order: it is a
 * credential, so request logs and spans show the path without it.
 */
export function loggedUrl(url: string): string {
  return url.replace(/^\/rastreio\/[^/?#]+/, '/rastreio/…');
}

/**
 * Two paths carry a credential: the public tracking page's token (`/rastreio/<token>`) lets
 * anyone see the order, and a store's account code (`/v1/autenticacao/<codigo>`) gets its
 * tokens. Request logs and spans show those paths without it.
 */
export function loggedUrl(url: string): string {
  return url.replace(/^(\/rastreio|\/v1\/autenticacao)\/[^/?#]+/, '$1/…');
}

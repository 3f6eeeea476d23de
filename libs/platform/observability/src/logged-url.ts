import type { RouteOptions } from 'fastify';

/**
 * The route option (Fastify's `config`) naming the route parameters that carry a credential:
 * the public tracking page's token lets anyone see the order, a store's account code gets its
 * tokens. Declared beside the route (`@SecretParams` in @trilha/http).
 */
export const SECRET_PARAMS = 'secretParams';

interface SecretRoute {
  /** The route's pattern, split at `/` without empty segments: a literal, or `:name` for a parameter. */
  segments: string[];
  secret: ReadonlySet<string>;
}

/** The routes of this process that declare secret parameters, as the router registered them. */
const secretRoutes: SecretRoute[] = [];

/** Fastify `onRoute` hook: remembers every route that declares secret parameters. */
export function secretRouteHook(route: RouteOptions): void {
  const secret = (route.config as Record<string, unknown> | undefined)?.[SECRET_PARAMS];
  if (Array.isArray(secret) && secret.length > 0) secretRoutes.push({ segments: route.url.split('/').filter(Boolean), secret: new Set(secret) });
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Whether a path's decoded segments begin as the route's pattern, a literal compared without case. */
function startsLike(route: SecretRoute, segments: string[]): boolean {
  return route.segments.length <= segments.length &&
    route.segments.every((part, index) => part.startsWith(':') || part.toLowerCase() === decoded(segments[index]).toLowerCase());
}

/**
 * A request's URL as logs and spans show it: the value of every secret route parameter is `…`.
 * The path is matched against each route that declares one, segment by %-decoded segment as
 * the router matches it, whatever the method: `/v1/autentica%63ao/<codigo>`, which the router
 * serves, and a POST there, which it refuses, both show `/v1/autenticacao/…`. A path that only
 * begins like such a route (a trailing slash, a segment more, another case) is shown so too, as
 * the route's pattern followed by the rest. Any other URL, which no such route could serve, is
 * shown as received.
 */
export function loggedUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  const segments = path.split('/').filter(Boolean);
  const route = secretRoutes.find((candidate) => startsLike(candidate, segments));
  if (!route) return url;
  const shown = route.segments.map((part, index) => (!part.startsWith(':') ? part : route.secret.has(part.slice(1)) ? '…' : segments[index]));
  return `/${[...shown, ...segments.slice(route.segments.length)].join('/')}${queryAt < 0 ? '' : url.slice(queryAt)}`;
}

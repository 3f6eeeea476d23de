import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension, ApiSecurity } from '@nestjs/swagger';
import { OPENAPI_EXTENSIONS } from './internal-api/internal-headers';
import type { FastifyRequest } from 'fastify';

export const ROUTE_ACCESS = 'trilha:route-access';

/** Routes without a store token: the token endpoint, docs, the public page, operator routes. */
export const SemToken = () => applyDecorators(SetMetadata(ROUTE_ACCESS, 'sem-token'), ApiExtension(OPENAPI_EXTENSIONS.withoutToken, true));

/**
 * The store portal's session cookie. `__Host-`: browsers keep it only if it is Secure, has
 * Path=/ and no Domain, so no other host (a subdomain included) can set or read it.
 */
export const PORTAL_COOKIE = '__Host-trilha-portal';

/** The OpenAPI security scheme of a portal session: an operation whose `security` lists it accepts the cookie. */
export const PORTAL_SECURITY_SCHEME = 'portal';

export const PORTAL_SESSION = 'trilha:portal-session';

/** How an operation accepts a portal session. */
export interface PortalSessionAccess {
  /** Only a session, never a token: the session's own routes. */
  only?: boolean;
  /** A read-only (`ver`) session may make this change too: ending itself. */
  readOnlySessionMayChange?: boolean;
}

/**
 * The operation accepts a store portal session (the PORTAL_COOKIE) instead of a Bearer token, by
 * the same rules and limits. Documented as the `portal` security scheme, which is how the
 * gateway learns it of an operation another service serves.
 */
export const PortalSession = (access: PortalSessionAccess = {}) =>
  applyDecorators(SetMetadata(PORTAL_SESSION, access), ApiSecurity(PORTAL_SECURITY_SCHEME));

export interface LojaAutenticada {
  idLoja: number;
}

export type AuthenticatedRequest = FastifyRequest & {
  loja?: LojaAutenticada;
  /** Set by the gateway's router on a forwarded request whose operation accepts a portal session. */
  portalSession?: PortalSessionAccess;
};

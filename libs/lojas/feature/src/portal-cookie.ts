import { serialize } from 'cookie';
import type { FastifyReply } from 'fastify';
import { PORTAL_COOKIE } from '@trilha/http';

/**
 * Sets the portal's session cookie: HttpOnly (no script reads it), Secure and `__Host-` (this
 * origin only, over HTTPS), SameSite=Strict (no other site's page sends it), for `maxAge`
 * seconds; 0 clears it.
 */
export function setPortalCookie(reply: FastifyReply, value: string, maxAge: number): void {
  reply.header('Set-Cookie', serialize(PORTAL_COOKIE, value, { path: '/', httpOnly: true, secure: true, sameSite: 'strict', maxAge }));
}

export const PORTAL_COOKIE_HEADER = {
  'Set-Cookie': {
    description: `\`${PORTAL_COOKIE}=<sessão>; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=<segundos>\`: a sessão do portal.`,
    schema: { type: 'string' },
  },
};

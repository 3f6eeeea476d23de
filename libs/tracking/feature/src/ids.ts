import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A new idPedido: 26 characters in the layout of a ULID (48-bit millisecond time, then 80
 * random bits, in Crockford base32), so ids sort roughly by creation and never collide.
 */
export function novoIdPedido(now = Date.now()): string {
  let time = '';
  for (let value = now, index = 0; index < 10; index += 1, value = Math.floor(value / 32)) time = CROCKFORD[value % 32] + time;
  const random = [...randomBytes(16)].map((byte) => CROCKFORD[byte % 32]).join('');
  return time + random;
}

/** The public page's token: 128 random bits (the contract asks for at least 96), URL-safe. */
export function novoTokenRastreio(): string {
  return randomBytes(16).toString('base64url');
}

export const TOKEN_RASTREIO = /^[A-Za-z0-9_-]{22}$/;

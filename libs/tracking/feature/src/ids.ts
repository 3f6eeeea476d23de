import { randomBytes } from 'node:crypto';

/**
 * The public page's token: 128 random bits (the contract asks for at least 96), URL-safe. It is
 * a secret that opens the page, not an id: nothing in it may be guessed, its time included, so
 * it is not made by @trilha/ids.
 */
export function novoTokenRastreio(): string {
  return randomBytes(16).toString('base64url');
}

export const TOKEN_RASTREIO = /^[A-Za-z0-9_-]{22}$/;

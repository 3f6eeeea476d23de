import { hash, randomBytes } from 'node:crypto';

/** A new account code: 192 random bits (docs/API.md section 1); an unguessable one needs at least 128. */
export const novoCodigo = (): string => randomBytes(24).toString('base64url');

/** SHA-256 of an account code: the read model keeps only this, never the code. */
export const hashCodigo = (codigo: string): string => hash('sha256', codigo, 'hex');

import { randomUUID } from 'node:crypto';

/** An opaque id of 32 hex characters (122 random bits). */
export const novoId = (): string => randomUUID().replace(/-/g, '');

/** Ids in paths are ours: anything longer than ours cannot exist. */
export const ID_MAX = 64;

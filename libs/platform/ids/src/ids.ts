import { v7 } from 'uuid';

/**
 * The platform's one id scheme. Every id it mints is a UUID version 7 (RFC 9562): 48 bits of
 * Unix time in milliseconds, then random bits, so ids sort by creation and new rows land at the
 * end of a b-tree index instead of anywhere in it. Within one process the `uuid` package keeps
 * them strictly increasing, even within a millisecond.
 */

/**
 * A new id in the canonical text form: 36 characters, lowercase hex with hyphens
 * (`0192f2c4-5e3a-7b1c-9d2e-3f4a5b6c7d8e`). This is the form of the Kafka envelope's `id`, of
 * PostgreSQL's `uuid` columns and of the `webhook-id` header.
 */
export const novoId = (): string => v7();

/**
 * The same UUIDv7 without its hyphens: 32 lowercase hex characters. It is `idPedido`'s form
 * only, because the public API limits `idPedido` to 32 characters; every other id is `novoId()`.
 */
export const novoIdCompacto = (): string => novoId().replace(/-/g, '');

/**
 * Ids are opaque strings to whoever reads them: an id in a path is looked up whatever its form
 * (ids stored in another form stay valid), but one longer than this cannot be the platform's and
 * names nothing.
 */
export const ID_MAX = 64;

/** What a UUID looks like in text: 32 hex digits in groups of 8-4-4-4-12, any version, either case. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether a text is a UUID: ids in paths and queries that PostgreSQL keeps in `uuid` columns are
 * checked with it, so anything else names nothing (404) and never reaches a uuid cast.
 */
export const ehUuid = (texto: string): boolean => UUID_PATTERN.test(texto);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids in paths and queries are UUIDs; anything else names nothing (404), and never reaches a uuid cast. */
export const ehUuid = (texto: string): boolean => UUID.test(texto);

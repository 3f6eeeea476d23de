import { LOJAS_CONTRACT, schemaVersionWritten, TOPICS } from '@trilha/contracts';
import type { OutboxRouting } from '@trilha/event-store';

/**
 * Every store event goes to `lojas.events.v1`; the code hash stays in the gateway (consumers
 * have no use for it and it is the key to a store's tokens).
 */
export const lojasRouting: OutboxRouting = (event) => {
  const { codigoHash: _secret, ...data } = event.data as { codigoHash?: string };
  return [{ topic: TOPICS.lojas, schemaVersion: schemaVersionWritten(LOJAS_CONTRACT, event.type), data }];
};

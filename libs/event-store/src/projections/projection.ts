import type { EntityManager } from 'typeorm';
import type { AppendedEvent, DomainEvent } from '../stored-event';

/**
 * A read model kept from events: `apply` is its evolve step, `handles` the event types it
 * reads. Inline projections run in the transaction that appends the events, so the read model
 * is never behind its writes, and write with `writeAtCommit` (nothing in a command reads a
 * read model back), so their statements travel with the COMMIT. `E` is the union of the events
 * it reads: it is handed only those whose type it `handles`.
 */
export interface Projection<E extends DomainEvent = DomainEvent> {
  readonly name: string;
  readonly handles: readonly E['type'][];
  /** The tables it writes, parents before their children: a rebuild empties them in the reverse order. */
  readonly tables: readonly string[];
  /**
   * `stream`: the event's stream before it, when the writer has read it (commands do; a
   * rebuild does not), for projections whose record is a fold of the whole stream.
   */
  apply(manager: EntityManager, event: AppendedEvent<E>, stream?: readonly AppendedEvent<E>[]): Promise<void>;
}

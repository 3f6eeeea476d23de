import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager } from 'typeorm';
import type { EventEnvelope } from '@trilha/contracts';
import { compactTransaction, type PreparedStatement } from '../compact-transaction';

export type InboxOutcome = 'handled' | 'duplicate';

/**
 * The inbox rows of a batch's messages (`$2`, their event ids in order); answers the positions
 * (from 0) of the new ones. PostgreSQL compares the ids (as uuids), and only a message's first
 * copy in the batch is new.
 */
const INBOX_INSERT: PreparedStatement = {
  name: 'trilha_inbox_insert',
  text: `WITH given AS (SELECT event_id, n - 1 AS n FROM unnest($2::uuid[]) WITH ORDINALITY AS g(event_id, n)),
    inserted AS (INSERT INTO inbox (consumer, event_id) SELECT DISTINCT $1::text, event_id FROM given ON CONFLICT DO NOTHING RETURNING event_id)
    SELECT min(n)::int AS n FROM given JOIN inserted USING (event_id) GROUP BY event_id`,
};

interface Entry {
  event: EventEnvelope;
  /** The handler, bound to its message's context (span, correlation id, store). */
  handle(manager: EntityManager): Promise<void>;
}

interface Member extends Entry {
  resolve(outcome: InboxOutcome): void;
  reject(error: unknown): void;
}

/**
 * Handles in one transaction the messages of one consumer that arrive in the same turn of the
 * event loop (kafkajs hands over one message per partition at a time, so they are of different
 * partitions, hence of different stores): BEGIN travels with one inbox INSERT for all of them,
 * the new ones' handlers run in turn, and all their `writeAtCommit` writes travel with the
 * COMMIT. Two round trips and one commit for a fetch's worth of messages, instead of two round
 * trips and a commit each; a repeat is skipped as it is alone.
 *
 * The members run in ascending order of their stores, the order in which every writer that
 * locks several stores takes their locks, so a batch never deadlocks with one. If the batch
 * fails, each of its messages is tried again alone, so a message that cannot be handled fails
 * only itself.
 */
export class InboxBatcher {
  private readonly queued = new Map<string, Member[]>();
  /** The batch runs in the context it was created in, not in its first message's. */
  private readonly later = AsyncLocalStorage.bind((work: () => void) => setImmediate(work));

  constructor(private readonly dataSource: DataSource) {}

  /** Handles `event` with the others of its turn, or `alone` (a retry: it never fails the others' batch again). */
  handle<T extends EventEnvelope>(consumer: string, event: T, handler: (event: T, manager: EntityManager) => Promise<void>, alone: boolean): Promise<InboxOutcome> {
    if (alone) return this.inOneTransaction(consumer, [{ event, handle: (manager) => handler(event, manager) }]).then(([outcome]) => outcome);
    const handle = AsyncLocalStorage.bind((manager: EntityManager) => handler(event, manager));
    return new Promise((resolve, reject) => {
      const members = this.queued.get(consumer);
      if (members) return void members.push({ event, handle, resolve, reject });
      this.queued.set(consumer, [{ event, handle, resolve, reject }]);
      this.later(() => void this.flush(consumer));
    });
  }

  private async flush(consumer: string): Promise<void> {
    const members = (this.queued.get(consumer) ?? []).sort((a, b) => a.event.idLoja - b.event.idLoja);
    this.queued.delete(consumer);
    try {
      const outcomes = await this.inOneTransaction(consumer, members);
      members.forEach((member, index) => member.resolve(outcomes[index]));
    } catch (error) {
      if (members.length === 1) return members[0].reject(error);
      for (const member of members) {
        this.inOneTransaction(consumer, [member]).then(([outcome]) => member.resolve(outcome), member.reject);
      }
    }
  }

  private inOneTransaction(consumer: string, entries: Entry[]): Promise<InboxOutcome[]> {
    const opening = [{ statement: INBOX_INSERT, params: [consumer, entries.map(({ event }) => event.id)] }];
    return compactTransaction(this.dataSource, opening, async (manager, inserted) => {
      const fresh = new Set<number>((inserted?.rows ?? []).map((row: { n: number }) => row.n));
      const outcomes: InboxOutcome[] = [];
      for (const [index, entry] of entries.entries()) {
        if (!fresh.has(index)) {
          outcomes.push('duplicate');
          continue;
        }
        await entry.handle(manager);
        outcomes.push('handled');
      }
      return outcomes;
    });
  }
}

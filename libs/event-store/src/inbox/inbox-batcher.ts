import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager } from 'typeorm';
import type { EventEnvelope } from '@trilha/contracts';
import { compactTransaction, type PreparedStatement } from '../compact-transaction';
import { fetchedBatchMember } from './fetched-batch';

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

/** The messages waiting for a consumer's next transaction, and the fetched batches they came in. */
interface Queue {
  members: Member[];
  handedOver: Set<Promise<void>>;
}

/**
 * A transaction of several messages failed: each is to be tried again alone, in its
 * partition's order (`MessageConsumer`), with no failure counted against it.
 */
export class SharedTransactionFailed extends Error {
  constructor(cause: unknown) {
    super(`a transaction shared with other messages failed: ${(cause as Error).message}`, { cause });
  }
}

/**
 * Handles in one transaction the messages of one consumer that arrive together: those of the
 * partitions handled at the same time, and every message of a partition's fetched batch
 * (`FetchedBatchMember`: the transaction waits until the batch is handed over). BEGIN travels
 * with one inbox INSERT for all of them, the new ones' handlers run in turn, and all their
 * `writeAtCommit` writes travel with the COMMIT. Two round trips and one commit for a fetch's
 * worth of messages, instead of two round trips and a commit each; a repeat is skipped as it
 * is alone.
 *
 * The members run in ascending order of their stores, the order in which every writer that
 * locks several stores takes their locks, so a batch never deadlocks with one; the sort keeps
 * the order of one store's messages. If a transaction of several messages fails, each of them
 * fails with `SharedTransactionFailed`, to be tried again alone, so a message that cannot be
 * handled fails only itself.
 */
export class InboxBatcher {
  private readonly queued = new Map<string, Queue>();
  /** The batch runs in the context it was created in, not in its first message's. */
  private readonly later = AsyncLocalStorage.bind((work: () => void) => setImmediate(work));

  constructor(private readonly dataSource: DataSource) {}

  /** Handles `event` with the others that arrive with it, or `alone` (a retry: it never fails the others' transaction again). */
  handle<T extends EventEnvelope>(consumer: string, event: T, handler: (event: T, manager: EntityManager) => Promise<void>, alone: boolean): Promise<InboxOutcome> {
    if (alone) return this.inOneTransaction(consumer, [{ event, handle: (manager) => handler(event, manager) }]).then(([outcome]) => outcome);
    const handle = AsyncLocalStorage.bind((manager: EntityManager) => handler(event, manager));
    const batchMember = fetchedBatchMember.getStore();
    return new Promise((resolve, reject) => {
      let queue = this.queued.get(consumer);
      if (!queue) {
        this.queued.set(consumer, (queue = { members: [], handedOver: new Set() }));
        this.later(() => void this.flush(consumer, queue as Queue));
      }
      queue.members.push({ event, handle, resolve, reject });
      if (batchMember) {
        queue.handedOver.add(batchMember.handedOver);
        batchMember.joined();
      }
    });
  }

  private async flush(consumer: string, queue: Queue): Promise<void> {
    // Messages of the batches being handed over join meanwhile, and may bring more batches.
    for (let waitedFor = 0; waitedFor < queue.handedOver.size; ) {
      const handedOver = [...queue.handedOver].slice(waitedFor);
      waitedFor = queue.handedOver.size;
      await Promise.all(handedOver);
    }
    this.queued.delete(consumer);
    const members = queue.members.sort((a, b) => a.event.idLoja - b.event.idLoja);
    try {
      const outcomes = await this.inOneTransaction(consumer, members);
      members.forEach((member, index) => member.resolve(outcomes[index]));
    } catch (error) {
      if (members.length === 1) return members[0].reject(error);
      for (const member of members) member.reject(new SharedTransactionFailed(error));
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

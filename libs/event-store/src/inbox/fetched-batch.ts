import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What a message handed over from a partition's fetched batch (`KafkaServer.handleBatch`) knows
 * of that batch. Its handling calls `joined` once it waits in an inbox transaction
 * (`InboxBatcher`), and the transaction runs only once `handedOver` resolves, so consecutive
 * messages of one partition share it.
 */
export interface FetchedBatchMember {
  /** Resolves once every message of the batch has joined a transaction or finished. */
  handedOver: Promise<void>;
  /** The message waits in a transaction that runs when `handedOver` resolves: hand over the next. */
  joined(): void;
}

export const fetchedBatchMember = new AsyncLocalStorage<FetchedBatchMember>();

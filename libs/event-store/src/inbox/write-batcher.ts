import type { DataSource } from 'typeorm';
import { inOneMessage, type Statement } from '../compact-transaction';
import { StatementPerTurn } from '../statement-per-turn';

/**
 * Sends the statements of messages handled at the same time together: everything queued in one
 * turn of the event loop goes to PostgreSQL in one message and one transaction (`StatementPerTurn`,
 * `inOneMessage`: the simple protocol, so the statements carry their values as literals). With
 * several partitions consumed at once, a fetch's worth of messages costs one round trip, not one
 * each. If the message fails, every message in it fails, and each is retried.
 */
export class WriteBatcher {
  private readonly turn: StatementPerTurn<Statement[], void>;

  constructor(dataSource: DataSource) {
    this.turn = new StatementPerTurn(async (queued) => {
      await inOneMessage(dataSource, queued.flat());
      return queued.map(() => undefined);
    }, Infinity);
  }

  send(statements: Statement[]): Promise<void> {
    return statements.length === 0 ? Promise.resolve() : this.turn.submit(statements);
  }
}

import type { DataSource } from 'typeorm';
import { StatementPerTurn } from '../statement-per-turn';

/**
 * Sends the statements of messages handled at the same time together: everything queued in one
 * turn of the event loop goes to PostgreSQL in one message (`StatementPerTurn`; the simple
 * protocol, so the statements carry their values as literals), which runs as one implicit
 * transaction. With several partitions consumed at once, a fetch's worth of messages costs one
 * round trip, not one each. If the message fails, every message in it fails, and each is retried.
 */
export class WriteBatcher {
  private readonly turn: StatementPerTurn<string[], void>;

  constructor(dataSource: DataSource) {
    this.turn = new StatementPerTurn(async (queued) => {
      await dataSource.query(queued.flat().join(';\n'));
      return queued.map(() => undefined);
    }, Infinity);
  }

  send(statements: string[]): Promise<void> {
    return statements.length === 0 ? Promise.resolve() : this.turn.submit(statements);
  }
}

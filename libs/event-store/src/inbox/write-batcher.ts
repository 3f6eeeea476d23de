import type { DataSource } from 'typeorm';

interface Queued {
  statements: string[];
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Sends the statements of messages handled at the same time together: everything queued in one
 * turn of the event loop goes to PostgreSQL in one message (the simple protocol, so the
 * statements carry their values as literals), which runs as one implicit transaction. With
 * several partitions consumed at once, a fetch's worth of messages costs one round trip, not
 * one each. If the message fails, every message in it fails, and each is retried.
 */
export class WriteBatcher {
  private queued: Queued[] = [];

  constructor(private readonly dataSource: DataSource) {}

  send(statements: string[]): Promise<void> {
    if (statements.length === 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      if (this.queued.push({ statements, resolve, reject }) === 1) setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    const batch = this.queued;
    this.queued = [];
    try {
      await this.dataSource.query(batch.flatMap((queued) => queued.statements).join(';\n'));
      for (const queued of batch) queued.resolve();
    } catch (error) {
      for (const queued of batch) queued.reject(error);
    }
  }
}

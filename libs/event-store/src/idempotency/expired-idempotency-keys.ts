import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { KEY_KEPT_HOURS } from './idempotent-request';

const EVERY_MS = 10 * 60_000;

/** Deletes the answers kept longer than KEY_KEPT_HOURS, every ten minutes (each replica; deleting twice is harmless). */
@Injectable()
export class ExpiredIdempotencyKeys implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ExpiredIdempotencyKeys.name);
  private timer?: NodeJS.Timeout;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.delete().catch((error: Error) => this.logger.warn(`deleting expired idempotency keys failed (${error.message}); trying again in ten minutes`)), EVERY_MS).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  delete(): Promise<unknown> {
    return this.dataSource.query(`DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1)`, [KEY_KEPT_HOURS]);
  }
}

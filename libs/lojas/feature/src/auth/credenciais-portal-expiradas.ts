import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

const EVERY_MS = 10 * 60_000;

/**
 * How long an expired link or session is kept: a request that comes with it within that time is
 * told it expired (and what to do), not that it is unknown.
 */
const KEPT_AFTER_EXPIRY = '1 day';

/** Deletes the portal's expired links and sessions every ten minutes (each replica; deleting twice is harmless). */
@Injectable()
export class CredenciaisPortalExpiradas implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(CredenciaisPortalExpiradas.name);
  private timer?: NodeJS.Timeout;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(
      () => void this.delete().catch((error: Error) => this.logger.warn(`deleting expired portal links and sessions failed (${error.message}); trying again in ten minutes`)),
      EVERY_MS,
    ).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async delete(): Promise<void> {
    await this.dataSource.query(`DELETE FROM portal_links WHERE expira_em < now() - interval '${KEPT_AFTER_EXPIRY}'`);
    await this.dataSource.query(`DELETE FROM portal_sessoes WHERE expira_em < now() - interval '${KEPT_AFTER_EXPIRY}'`);
  }
}

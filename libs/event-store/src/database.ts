import { Client, type Pool } from 'pg';
import { DataSource, type DataSourceOptions, type MixedList } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { EventStoreTables1732000000000 } from './migrations/1732000000000-event-store-tables';
import { ParkedMessages1732000000400 } from './migrations/1732000000400-parked-messages';
import { IdempotencyKeys1732000000500 } from './migrations/1732000000500-idempotency-keys';

export interface ServiceDatabase {
  url: string;
  /** The service's own schema: it owns every table in it, through its migrations. */
  schema: string;
  poolSize: number;
  /** The service's own migrations; the event store's tables are added to them. */
  migrations: MixedList<string | (new () => unknown)>;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]*$/;

export function dataSourceOptions(db: ServiceDatabase): DataSourceOptions {
  if (!SCHEMA_NAME.test(db.schema)) throw new Error(`invalid schema name: ${db.schema}`);
  return {
    type: 'postgres',
    url: db.url,
    schema: db.schema,
    // Unqualified names in raw SQL resolve to the service's schema. Prepared statements run
    // their generic plan, made once per connection: for statements over unnest() arrays (the
    // record of attempts, the webhooks' health) PostgreSQL otherwise judges a plan made for each
    // call's values cheaper, and making it cost the record of attempts 1.4 ms a call, twice
    // what running its generic plan does.
    extra: { max: db.poolSize, options: `-c search_path=${db.schema} -c plan_cache_mode=force_generic_plan` },
    migrations: [EventStoreTables1732000000000, ...(db.migrations as unknown[]), ParkedMessages1732000000400, IdempotencyKeys1732000000500] as DataSourceOptions['migrations'],
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
  } as DataSourceOptions;
}

/** Creates the service's schema if needed, so the migrations table can live in it. */
export async function ensureSchema(db: ServiceDatabase): Promise<void> {
  const client = new Client({ connectionString: db.url });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${db.schema}`);
  } finally {
    await client.end();
  }
}

/** Applies pending migrations; used at start-up (local runs) and by `main.js migrate` (the Helm hook). */
export async function migrate(db: ServiceDatabase): Promise<string[]> {
  await ensureSchema(db);
  const dataSource = new DataSource(dataSourceOptions(db));
  await dataSource.initialize();
  try {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((migration) => migration.name);
  } finally {
    await dataSource.destroy();
  }
}

/**
 * The pg pool under a service's DataSource: for the hot statements sent as named prepared
 * statements on its connections, without TypeORM's query runner.
 */
export function pgPool(dataSource: DataSource): Pool {
  return (dataSource.driver as PostgresDriver).master as Pool;
}

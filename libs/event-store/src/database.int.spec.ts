import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { testStack } from '@trilha/testing';
import { dataSourceOptions, migrate, type ServiceDatabase } from './database';

describe('a service’s database connections (PostgreSQL)', () => {
  const stack = testStack();
  const schema = `it_database_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const database: ServiceDatabase = { url: stack.infra.databaseUrl, schema, poolSize: 2, migrations: [] };
  let dataSource: DataSource;

  beforeAll(async () => {
    await migrate(database);
    dataSource = await new DataSource(dataSourceOptions(database)).initialize();
  });

  afterAll(async () => {
    await dataSource.query(`DROP SCHEMA ${schema} CASCADE`);
    await dataSource.destroy();
  });

  it('resolve unqualified names in the service’s schema and run prepared statements’ generic plans', async () => {
    expect(await dataSource.query(`SELECT current_schema() AS schema, current_setting('plan_cache_mode') AS plans`)).toEqual([
      { schema, plans: 'force_generic_plan' },
    ]);
  });
});

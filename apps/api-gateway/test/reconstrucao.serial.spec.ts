import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { createStore, testStack } from '@trilha/testing';

const stack = testStack();
const gatewayMain = join(__dirname, '../../../dist/apps/api-gateway/src/main.js');

/** A rebuild rewrites the read model the running gateway serves from: no other test may write meanwhile. */
describe('projections rebuilt from the event log with one command', () => {
  it('rebuilds the gateway’s store read model to the same content', async () => {
    const db = new Client({ connectionString: stack.infra.databaseUrl });
    await db.connect();
    const snapshot = () => db.query('SELECT * FROM gateway.lojas ORDER BY id_loja').then((result) => result.rows);
    try {
      await createStore('Loja Reconstruída');
      const before = await snapshot();
      expect(before.length).toBeGreaterThan(0);
      const run = spawnSync(process.execPath, [gatewayMain, 'rebuild-projections', 'lojas'], {
        env: { ...process.env, ...stack.env['api-gateway'] },
        encoding: 'utf8',
      });
      expect(run.status).toBe(0);
      expect(run.stderr).toMatch(/rebuilt lojas \(\d+ events\)/);
      expect(await snapshot()).toEqual(before);
      const unknown = spawnSync(process.execPath, [gatewayMain, 'rebuild-projections', 'nope'], {
        env: { ...process.env, ...stack.env['api-gateway'] },
        encoding: 'utf8',
      });
      expect(unknown.status).not.toBe(0);
      expect(unknown.stderr).toMatch(/unknown projection nope; api-gateway has: lojas/);
    } finally {
      await db.end();
    }
  });
});

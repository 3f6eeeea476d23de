import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { apiClient, createStore, testStack, uniqueId } from '@trilha/testing';

const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);
const main = join(__dirname, '../../../dist/apps/tracking-service/src/main.js');

/** A rebuild rewrites the read models the running service serves from: no other test may write meanwhile. */
describe('read models rebuilt from the event log with one command', () => {
  it('rebuilds orders, tracking records and lookups to the same content', async () => {
    const loja = await createStore();
    const numeroPedido = `P-${uniqueId()}`;
    for (const [index, keys] of [{ codigoRastreio: 'BR1' }, { chaveNFe: '1'.repeat(44) }, { codigoRastreio: 'BR1' }].entries()) {
      await api('POST', '/pedidoRastreio/evento', {
        token: loja.token, body: { numeroPedido, ...keys, dataHora: `2026-11-2${index}T10:00:00Z`, descricao: `evento ${index}`, pedidoCanal: `MKT-${index}` },
      });
    }
    const db = new Client({ connectionString: stack.infra.databaseUrl });
    await db.connect();
    const snapshot = async () => {
      const tables = { pedidos: 'id_pedido', rastreios: 'id_pedido', rastreio_codigos: 'codigo_rastreio', rastreio_hashes: 'hash' };
      const rows: unknown[][] = [];
      for (const [table, key] of Object.entries(tables)) {
        rows.push((await db.query(`SELECT * FROM tracking.${table} WHERE id_loja = $1 ORDER BY ${key}`, [loja.idLoja])).rows);
      }
      return rows;
    };
    try {
      const before = await snapshot();
      expect(before.map((rows) => rows.length)).toEqual([1, 1, 1, 3]);
      await db.query('UPDATE tracking.rastreios SET documento = $2 WHERE id_loja = $1', [loja.idLoja, '{}']);
      const run = spawnSync(process.execPath, [main, 'rebuild-projections'], { env: { ...process.env, ...stack.env['tracking-service'] }, encoding: 'utf8' });
      expect(run.stderr).toMatch(/rebuilt pedidos \(\d+ events\), rastreios \(\d+ events\)/);
      expect(run.status).toBe(0);
      expect(await snapshot()).toEqual(before);
      const record = await api('GET', `/pedidoRastreio?chave=numeroPedido&valor=${numeroPedido}`, { token: loja.token });
      expect(record.body).toMatchObject({ pedidoCanal: 'MKT-2', totalVolumes: 2 });
    } finally {
      await db.end();
    }
  });
});

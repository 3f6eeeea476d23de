import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { apiClient, createStore, testStack } from '@trilha/testing';

const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);
const admin = { 'x-admin-key': stack.adminApiKey };
const mainOf = (service: string) => join(__dirname, '../../../dist/apps', service, 'src/main.js');

/** Runs `main.js rebuild-projections` of a service while `write` is called again and again; returns what the writes returned. */
async function rebuildWhileWriting<T>(service: string, projection: string, write: () => Promise<T>): Promise<{ stderr: string; written: T[] }> {
  const child = spawn(process.execPath, [mainOf(service), 'rebuild-projections', projection], { env: { ...process.env, ...stack.env[service] } });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((done) => child.on('exit', done));
  let running = true;
  void exited.then(() => (running = false));
  const written: T[] = [];
  // Four writers at a time, from before the rebuild connects until after it has exited.
  await Promise.all(Array.from({ length: 4 }, async () => {
    while (running) written.push(await write());
    written.push(await write());
  }));
  expect(await exited).toBe(0);
  return { stderr, written };
}

/** A rebuild rewrites the read model the running gateway serves from: no other test may write meanwhile. */
describe('projections rebuilt from the event log with one command', () => {
  it('rebuilds the gateway’s store read model to the same content, and names an unknown projection', async () => {
    const db = new Client({ connectionString: stack.infra.databaseUrl });
    await db.connect();
    const snapshot = () => db.query('SELECT * FROM gateway.lojas ORDER BY id_loja').then((result) => result.rows);
    try {
      const loja = await createStore('Loja Reconstruída');
      // Its code rotated: the rebuild must come to the new code's hash and revocation time.
      expect((await api('POST', `/admin/lojas/${loja.idLoja}/codigo/rotacionar`, { headers: admin })).status).toBe(200);
      const before = await snapshot();
      expect(before.length).toBeGreaterThan(0);
      const run = spawnSync(process.execPath, [mainOf('api-gateway'), 'rebuild-projections', 'lojas'], { env: { ...process.env, ...stack.env['api-gateway'] }, encoding: 'utf8' });
      expect(run.status).toBe(0);
      expect(run.stderr).toMatch(/rebuilt lojas \(\d+ events\)/);
      expect(await snapshot()).toEqual(before);
      const unknown = spawnSync(process.execPath, [mainOf('api-gateway'), 'rebuild-projections', 'nope'], { env: { ...process.env, ...stack.env['api-gateway'] }, encoding: 'utf8' });
      expect(unknown.status).not.toBe(0);
      expect(unknown.stderr).toMatch(/unknown projection nope; api-gateway has: lojas/);
    } finally {
      await db.end();
    }
  });

  it('loses no store created or deactivated while the stores are rebuilt', async () => {
    const { stderr, written } = await rebuildWhileWriting('api-gateway', 'lojas', async () => {
      const loja = await createStore('Loja Durante a Reconstrução');
      expect((await api('POST', `/admin/lojas/${loja.idLoja}/desativar`, { headers: admin })).status).toBe(200);
      return loja.idLoja;
    });
    expect(stderr).toMatch(/rebuilt lojas \(\d+ events\)/);
    const db = new Client({ connectionString: stack.infra.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query('SELECT id_loja, ativa FROM gateway.lojas WHERE id_loja = ANY($1) ORDER BY id_loja', [written]);
      expect(rows).toEqual(written.sort((a, b) => a - b).map((idLoja) => ({ id_loja: idLoja, ativa: false })));
    } finally {
      await db.end();
    }
  });

  it('loses no conversation closed while the conversations are rebuilt', async () => {
    const loja = await createStore('Loja Atendimentos Reconstruídos');
    const abrir = async () => (await api('POST', '/atendimentos', { token: loja.token, body: { canal: 'chat', tipo: 'duvida', dadosCliente: { nome: 'Ana' } } })).body.idAtendimento as string;
    const { stderr, written } = await rebuildWhileWriting('atendimento-service', 'atendimentos', async () => {
      const idAtendimento = await abrir();
      expect((await api('POST', `/atendimentos/${idAtendimento}/encerrar`, { token: loja.token, body: { resumo: 'resolvido' } })).status).toBe(200);
      return idAtendimento;
    });
    expect(stderr).toMatch(/rebuilt atendimentos \(\d+ events\)/);
    for (const idAtendimento of written) {
      expect((await api('GET', `/atendimentos/${idAtendimento}`, { token: loja.token })).body).toMatchObject({ idAtendimento, status: 'encerrado', resumo: 'resolvido' });
    }
  });
});

import { Client } from 'pg';
import { apiClient, createStore, eventually, everyServiceReady, expectProblem, readiness, restartInfra, startInfra, stopInfra, testStack } from '@trilha/testing';

const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);
const admin = { 'x-admin-key': stack.adminApiKey };

async function query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  const db = new Client({ connectionString: stack.infra.databaseUrl });
  await db.connect();
  try {
    return (await db.query(sql, params)).rows as T[];
  } finally {
    await db.end();
  }
}

const reachedDelivery = (idLoja: number) => async () =>
  (await query(`SELECT 1 FROM delivery.lojas WHERE id_loja = $1`, [idLoja]).catch(() => [])).length === 1 || undefined;

describe('the platform rides out infrastructure restarts', () => {
  it('keeps events committed while Kafka is down in the outbox, and delivers them when it is back', async () => {
    const restarted = restartInfra(stack, 'kafka', 8000);
    // Kafka is stopping: wait until a service reports it unreachable.
    await eventually('Kafka reported down', async () => (await readiness(stack.ports.ops['api-gateway']))?.status === 'degraded' || undefined, 20_000, 100);

    const created = await api('POST', '/admin/lojas', { headers: admin, body: { nome: 'Criada sem Kafka' } });
    expect(created.status).toBe(201);
    const pending = await query<{ count: number }>(`SELECT count(*)::int AS count FROM gateway.outbox`);
    expect(pending[0].count).toBeGreaterThan(0);

    await restarted;
    await eventually('the event in the delivery service', reachedDelivery(created.body.idLoja), 60_000, 200);
    expect(await query(`SELECT * FROM gateway.outbox`)).toEqual([]);
    await eventually('every service ready again', () => everyServiceReady(stack), 30_000, 200);
  });

  it('answers 503 while PostgreSQL is down and reconnects after, without losing what was committed', async () => {
    const before = await api('POST', '/admin/lojas', { headers: admin, body: { nome: 'Antes do reinício' } });
    expect(before.status).toBe(201);
    const loja = await createStore();
    await stopInfra(stack, 'postgres');
    try {
      // A store's creation (the gateway's database) and a list of orders (the tracking service's): retry later, not a bug.
      const semBanco = await api('POST', '/admin/lojas', { headers: admin, body: { nome: 'Sem banco' } });
      expectProblem(semBanco, 503);
      expect(semBanco.body.detail).toMatch(/indisponível/);
      expectProblem(await api('GET', '/pedidos', { token: loja.token }), 503);
    } finally {
      await startInfra(stack, 'postgres');
    }

    const after = await eventually('a store created after the restart', async () => {
      const response = await api('POST', '/admin/lojas', { headers: admin, body: { nome: 'Depois do reinício' } });
      return response.status === 201 ? response : undefined;
    }, 30_000, 250);
    await eventually('both events in the delivery service', async () =>
      (await reachedDelivery(before.body.idLoja)()) && (await reachedDelivery(after.body.idLoja)()), 30_000, 200);
    await eventually('every service ready again', () => everyServiceReady(stack), 30_000, 200);
  });
});

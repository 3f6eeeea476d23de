import { Client } from 'pg';
import { apiClient, createStore, eventually, everyServiceReady, expectProblem, pidOnPort, readiness, restartInfra, startInfra, startReplica, stopInfra, testStack } from '@trilha/testing';

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

  it('stops within its shutdown deadline while PostgreSQL and Kafka do not answer', async () => {
    // Services with every kind of shutdown work: the delivery service drains its attempts and
    // its outbox, the gateway its forwarder and rate limiter.
    const services = ['delivery-service', 'api-gateway'];
    const replicas = await Promise.all(services.map((service) =>
      startReplica(stack, service, `${service}-parada-sem-infra`, {
        OPS_PORT: String(stack.ports.ops[service] + 50),
        INTERNAL_PORT: String(stack.ports.internal[service] + 50),
        PUBLIC_PORT: String(stack.ports.gateway + 50),
      }),
    ));
    // Paused, not stopped: their connections hang open, the hardest case for a shutdown.
    const infra = [pidOnPort(stack.ports.postgres), pidOnPort(stack.ports.kafka)];
    infra.forEach((pid) => process.kill(pid, 'SIGSTOP'));
    try {
      const started = Date.now();
      const exits = await Promise.all(replicas.map(async (replica) => {
        await replica.stop('SIGTERM');
        return { name: replica.name, seconds: (Date.now() - started) / 1000 };
      }));
      // The 15 s deadline (run-service.ts) plus the margin of a busy machine.
      expect(exits.filter((exit) => exit.seconds > 20)).toEqual([]);
    } finally {
      infra.forEach((pid) => process.kill(pid, 'SIGCONT'));
      await Promise.all(replicas.map((replica) => replica.stop('SIGKILL')));
    }
    await eventually('every service ready again', () => everyServiceReady(stack), 60_000, 200);
  }, 90_000);
});

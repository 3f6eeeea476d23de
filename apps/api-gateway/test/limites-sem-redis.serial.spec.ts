import { execFileSync } from 'node:child_process';
import Redis from 'ioredis';
import { apiClient, createStore, eventually, metricValue, restartInfra, serviceLogs, testStack, type TestStore } from '@trilha/testing';

const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);
const opsPort = stack.ports.ops['api-gateway'];
const REACHABLE = 'trilha_rate_limit_redis_reachable';
const COUNTED_LOCALLY = 'trilha_rate_limit_counted_locally_total';
/** GET /pedidoRastreio's own limit (docs/API.md): the 121st request of a minute is refused. */
const TRACKING_LIMIT = 120;

/** The pid of the Redis listening on the stack's port, if one is. */
function redisPid(): number | undefined {
  const listening = execFileSync('ss', ['-ltnpH', `sport = :${stack.ports.redis}`], { encoding: 'utf8' });
  const pid = /pid=(\d+)/.exec(listening)?.[1];
  return pid ? Number(pid) : undefined;
}

async function redisAnswers(): Promise<boolean> {
  const redis = new Redis(stack.infra.redisUrl, { lazyConnect: true, commandTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/** Runs a request and checks that it was answered within a second. */
async function withinASecond<T>(what: string, call: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const answer = await call();
  const ms = performance.now() - started;
  if (ms >= 1000) throw new Error(`${what} took ${Math.round(ms)} ms`);
  return answer;
}

/** A fresh store with one tracked order, so its tracking counter starts at zero this minute. */
async function storeWithOrder(numeroPedido: string): Promise<{ store: TestStore; path: string }> {
  const store = await createStore(`Loja ${numeroPedido}`);
  const registered = await withinASecond('POST /pedidoRastreio/evento', () => api('POST', '/pedidoRastreio/evento', {
    token: store.token, body: { numeroPedido, codigoRastreio: 'BR1', dataHora: '2026-11-24T10:00:00Z', descricao: 'Postado' },
  }));
  expect(registered.status).toBe(201);
  return { store, path: `/pedidoRastreio?chave=numeroPedido&valor=${numeroPedido}` };
}

/** Waits for the start of a minute if too little of this one is left for 121 requests. */
async function roomInThisMinute(): Promise<number> {
  const msIntoMinute = Date.now() % 60_000;
  if (msIntoMinute > 40_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - msIntoMinute + 200));
  return Math.floor(Date.now() / 60_000);
}

/** What a store sees while Redis does not answer: every request answered quickly, limits still enforced. */
async function limitsHoldWithoutRedis(numeroPedido: string): Promise<void> {
  const countedBefore = await metricValue(opsPort, COUNTED_LOCALLY);
  const { store, path } = await storeWithOrder(numeroPedido);
  const loja = await withinASecond('GET /loja', () => api('GET', '/loja', { token: store.token }));
  expect(loja.status).toBe(200);
  expect(loja.body.idLoja).toBe(store.idLoja);

  const minute = await roomInThisMinute();
  const statuses: number[] = [];
  let answer;
  for (let index = 0; index < TRACKING_LIMIT; index += 1) {
    answer = await withinASecond(`GET /pedidoRastreio #${index + 1}`, () => api('GET', path, { token: store.token }));
    statuses.push(answer.status);
  }
  expect(statuses).toEqual(Array(TRACKING_LIMIT).fill(200));
  expect(answer!.headers['ratelimit-limit']).toBe(String(TRACKING_LIMIT));
  expect(answer!.headers['ratelimit-remaining']).toBe('0');
  const refused = await withinASecond('the 121st GET /pedidoRastreio', () => api('GET', path, { token: store.token }));
  expect(Math.floor(Date.now() / 60_000)).toBe(minute);
  expect(refused.status).toBe(429);
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  // The limit is the endpoint's own: the store's other endpoints still answer.
  expect((await withinASecond('GET /loja after the 429', () => api('GET', '/loja', { token: store.token }))).status).toBe(200);

  const ready = await fetch(`http://127.0.0.1:${opsPort}/readyz`);
  expect(ready.status).toBe(200);
  expect(await metricValue(opsPort, REACHABLE)).toBe(0);
  expect(await metricValue(opsPort, COUNTED_LOCALLY)).toBeGreaterThanOrEqual(countedBefore + TRACKING_LIMIT + 1);
}

describe('an outage of Redis degrades rate limiting, never the API', () => {
  beforeAll(async () => {
    await eventually('the gateway counting in Redis', async () => (await metricValue(opsPort, REACHABLE)) === 1 || undefined);
  });

  // Later serial tests need Redis: whatever happened, it is left running and the gateway on it.
  afterAll(async () => {
    const pid = redisPid();
    if (pid) process.kill(pid, 'SIGCONT');
    if (!(await redisAnswers())) await restartInfra(stack, 'redis');
    await eventually('the gateway counting in Redis again', async () => (await metricValue(opsPort, REACHABLE)) === 1 || undefined);
  });

  it('answers within a second and still limits while Redis hangs (SIGSTOP), warning in its log', async () => {
    const pid = redisPid()!;
    process.kill(pid, 'SIGSTOP');
    try {
      await limitsHoldWithoutRedis('SEM-REDIS-PARADO');
      const warning = serviceLogs(stack.dataDir, 'api-gateway').find((line) => /^Redis unreachable \(/.test(String(line.msg)));
      expect(warning).toMatchObject({ level: 'warn', context: 'RateLimit' });
    } finally {
      process.kill(pid, 'SIGCONT');
    }
  });

  it('answers within a second and still limits while Redis is gone (SIGKILL)', async () => {
    process.kill(redisPid()!, 'SIGKILL');
    await limitsHoldWithoutRedis('SEM-REDIS-MORTO');
  });

  it('goes back to the shared counters in Redis by itself once Redis answers again', async () => {
    await restartInfra(stack, 'redis');
    await eventually('the gateway to see Redis again', async () => (await metricValue(opsPort, REACHABLE)) === 1 || undefined, 15_000, 100);
    const countedBefore = await metricValue(opsPort, COUNTED_LOCALLY);
    const { store, path } = await storeWithOrder('REDIS-DE-VOLTA');
    await roomInThisMinute();
    const remaining = [];
    for (let index = 0; index < 3; index += 1) remaining.push((await api('GET', path, { token: store.token })).headers['ratelimit-remaining']);
    expect(remaining).toEqual(['119', '118', '117']);

    const redis = new Redis(stack.infra.redisUrl);
    try {
      // The replica adds its hits to Redis every 50 ms.
      await eventually('the three hits in Redis', async () => {
        const counters = await redis.keys(`trilha:rl:*:loja:${store.idLoja}:*`);
        const values = await Promise.all(counters.map((counter) => redis.get(counter)));
        return values.includes('3') || undefined;
      }, 2_000, 20);
    } finally {
      redis.disconnect();
    }
    expect(await metricValue(opsPort, COUNTED_LOCALLY)).toBe(countedBefore);
    expect(serviceLogs(stack.dataDir, 'api-gateway').some((line) => /^Redis answers again/.test(String(line.msg)))).toBe(true);
  });
});

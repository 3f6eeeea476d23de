import { apiClient, createStore, expectProblem, percentile, sleep, testStack, uniqueId, type ApiResponse } from '@trilha/testing';

// Serial: what is measured is another store's latency while one body is refused.
const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);
const admin = { 'x-admin-key': stack.adminApiKey };

/** An object of `keys` distinct short keys: 90,000 of them fit in 1 MiB. */
const withKeys = (keys: number) => JSON.stringify(Object.fromEntries(Array.from({ length: keys }, (_, i) => [i.toString(36), 1])));
const nestedLists = (levels: number) => `{"faq":${'['.repeat(levels)}${']'.repeat(levels)}}`;

/**
 * Reads another store's orders, one read every 10 ms or more (within its per-minute limit), for
 * a second; then again while `attack` is sent over and over for a second, each one as soon as the
 * last is answered. What the attacker got each time and its slowest answer, and the p90 of the
 * other store's reads without and with the attacks. An attack that held an event loop would hold
 * up most reads made meanwhile, and so their p90; a lone pause of the shared machine moves the
 * slowest of the sixty-odd reads a second holds, not their p90.
 */
async function whileAnotherStoreReads(attack: () => Promise<ApiResponse>) {
  const outra = await createStore('Outra loja');
  const readFor = async (done: () => boolean) => {
    const durations: number[] = [];
    const until = Date.now() + 1000;
    while (!done() || Date.now() < until) {
      const started = performance.now();
      expect((await api('GET', '/pedidos', { token: outra.token })).status).toBe(200);
      durations.push(performance.now() - started);
      await sleep(10);
    }
    return percentile(durations, 90);
  };
  const quietP90 = await readFor(() => true);
  let attacking = true;
  const reading = readFor(() => !attacking);
  const answers: ApiResponse[] = [];
  let attackMs = 0;
  const until = Date.now() + 1000;
  while (Date.now() < until) {
    const started = performance.now();
    answers.push(await attack());
    attackMs = Math.max(attackMs, performance.now() - started);
  }
  attacking = false;
  return { answers, attackMs, quietP90, readP90: await reading };
}

/** Each attack waited less than a second for its answer, and the other store's p90 grew by less than 100 ms. */
function expectCheap({ attackMs, quietP90, readP90 }: { attackMs: number; quietP90: number; readP90: number }) {
  expect(attackMs).toBeLessThan(1000);
  expect(readP90 - quietP90).toBeLessThan(100);
}

/** Every answer to the attacks: a 400 problem with `detail`. */
function expectRefused(answers: ApiResponse[], detail: string | RegExp) {
  for (const answer of answers) {
    expectProblem(answer, 400);
    expect(answer.body.detail).toMatch(detail);
  }
}

describe('bounded request bodies (docs/API.md section 0)', () => {
  let atacante: Awaited<ReturnType<typeof createStore>>;
  beforeAll(async () => {
    atacante = await createStore('Atacante');
  });

  it.each([
    ['90,000 keys in one object', () => withKeys(90_000), 'Um objeto do corpo da requisição passa de 256 campos.'],
    ['a list 200,000 levels deep', () => nestedLists(200_000), 'O corpo da requisição passa de 32 níveis de objetos e listas aninhados.'],
    ['a list of 500,000 items', () => `{"itens":[${Array(500_000).fill(1).join(',')}]}`, 'O corpo da requisição passa de 10.000 valores (campos e itens de listas).'],
  ])('refuses %s with a 400 naming the limit within a second, adding under 100 ms to another store’s p90 while sent over and over', async (_, body, detail) => {
    const rawBody = body();
    expect(Buffer.byteLength(rawBody)).toBeLessThanOrEqual(1024 * 1024);
    const measured = await whileAnotherStoreReads(() => api('PUT', '/pedido', { token: atacante.token, rawBody }));
    expectRefused(measured.answers, detail);
    expectCheap(measured);
  });

  it('refuses the same on the operator route, which the gateway validates itself', async () => {
    const rawBody = withKeys(90_000);
    const largo = await whileAnotherStoreReads(() => api('POST', '/admin/lojas', { headers: admin, rawBody }));
    expectRefused(largo.answers, 'Um objeto do corpo da requisição passa de 256 campos.');
    expectCheap(largo);
    const fundo = await whileAnotherStoreReads(() => api('POST', '/admin/lojas', { headers: admin, rawBody: nestedLists(200_000) }));
    expectRefused(fundo.answers, /32 níveis/);
    expectCheap(fundo);
  });

  it('lists the first 100 invalid fields and counts them all', async () => {
    const itens = Array.from({ length: 1000 }, () => ({ sku: 'A', descricao: 'B', quantidade: 1, valorUnitario: 1, cor: 'azul', tamanho: 'M' }));
    const answer = await api('PUT', '/pedido', { token: atacante.token, body: { numeroPedido: `P-${uniqueId()}`, cliente: { nome: 'Ana' }, itens, valorTotal: 1, dataPedido: '2026-11-20T09:00:00Z' } });
    expectProblem(answer, 400);
    expect(answer.body.erros).toHaveLength(100);
    expect(answer.body.erros[0]).toEqual({ campo: 'itens.0.cor', mensagem: 'itens.0.cor não é um campo aceito' });
    expect(answer.body.totalErros).toBe(2000);
  });

  it('takes the largest legitimate body: an order of 1000 items', async () => {
    const itens = Array.from({ length: 1000 }, (_, i) => ({ sku: `SKU-${i}`, descricao: `Item ${i}`, quantidade: 1, valorUnitario: 1 }));
    const answer = await api('PUT', '/pedido', { token: atacante.token, body: { numeroPedido: `P-${uniqueId()}`, cliente: { nome: 'Ana' }, itens, valorTotal: 1000, dataPedido: '2026-11-20T09:00:00Z' } });
    expect(answer.status).toBe(201);
    expect(answer.body.itens).toHaveLength(1000);
  });
});

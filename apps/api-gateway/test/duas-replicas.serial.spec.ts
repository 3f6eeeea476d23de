import { randomUUID } from 'node:crypto';
import { apiClient, createStore, startReplica, testStack, type ApiResponse, type Replica, type TestStore } from '@trilha/testing';

const stack = testStack();
const SERVICOS = ['tracking-service', 'atendimento-service', 'delivery-service'] as const;
/** Ports of their own, clear of the stack's and of the other tests' replicas. */
const BASE = stack.ports.ops['api-gateway'] + 170;

interface Processo {
  name: string;
  service: string;
  env: Record<string, string>;
  replica?: Replica;
}

/** Two replicas of each internal service, and two gateways that route to both of each. */
function processos(): Processo[] {
  const internos = SERVICOS.flatMap((service, s) =>
    ['a', 'b'].map((copia, c) => ({
      name: `${service}-${copia}-duas-replicas`,
      service,
      env: { INTERNAL_PORT: String(BASE + 4 * s + 2 * c), OPS_PORT: String(BASE + 4 * s + 2 * c + 1) },
    })),
  );
  const urls = Object.fromEntries(
    SERVICOS.map((service) => [
      `${service.replace('-service', '').toUpperCase()}_SERVICE_URL`,
      internos.filter((processo) => processo.service === service).map((processo) => `http://127.0.0.1:${processo.env.INTERNAL_PORT}`).join(','),
    ]),
  );
  const gateways = ['a', 'b'].map((copia, c) => ({
    name: `api-gateway-${copia}-duas-replicas`,
    service: 'api-gateway',
    env: { PUBLIC_PORT: String(stack.ports.gateway + 70 + c), OPS_PORT: String(BASE + 20 + c), INSTANCE_ID: `serial-duas-replicas-${copia}`, ...urls },
  }));
  return [...internos, ...gateways];
}

describe('two replicas of every service', () => {
  it('a kill -9 of any one replica, under load, makes no request fail and creates nothing twice', async () => {
    const todos = processos();
    const gateways = todos.filter((processo) => processo.service === 'api-gateway').map((processo) => apiClient(`https://127.0.0.1:${processo.env.PUBLIC_PORT}/v1`, stack.caFile));
    // A store per client, each at most 4 requests a second per route: well under the limit per minute.
    const lojas = await Promise.all(Array.from({ length: 4 }, (_, n) => createStore(`Loja Duas Réplicas ${n}`)));
    try {
      for (const processo of todos) processo.replica = await startReplica(stack, processo.service, processo.name, processo.env);

      /**
       * A client behind a load balancer that retries a connection that fails on the other
       * gateway, as it may for these requests: reads, and creations under an Idempotency-Key.
       */
      let vez = 0;
      const pedir = async (loja: TestStore, method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<ApiResponse> => {
        const primeiro = (vez += 1);
        for (let tentativa = 0; ; tentativa += 1) {
          try {
            return await gateways[(primeiro + tentativa) % 2](method, path, { token: loja.token, ...options });
          } catch (error) {
            if (tentativa >= 5) throw error;
            // The other gateway at once; both tried, a pause.
            if (tentativa % 2 === 1) await new Promise((resolve) => setTimeout(resolve, 200));
          }
        }
      };

      const falhas: string[] = [];
      /** By store, the conversation each key opened. */
      const criados = lojas.map(() => new Map<string, string>());
      let respondidas = 0;
      let carregando = true;
      /** One client's loop: opens a conversation under a new key, reads it, records a tracking event under a key, reads the queue. */
      const cliente = async (n: number) => {
        const loja = lojas[n];
        while (carregando) {
          const pace = new Promise((resolve) => setTimeout(resolve, 250));
          const key = randomUUID();
          const passos: [string, () => Promise<ApiResponse>, number][] = [
            ['abrir', () => pedir(loja, 'POST', '/atendimentos', { headers: { 'idempotency-key': key }, body: { canal: 'chat', tipo: 'duvida', dadosCliente: { nome: `Cliente ${n}` } } }), 201],
            ['ler', () => pedir(loja, 'GET', `/atendimentos/${criados[n].get(key)}`), 200],
            ['rastrear', () => pedir(loja, 'POST', '/pedidoRastreio/evento', { headers: { 'idempotency-key': `${key}-evento` }, body: { numeroPedido: key, codigoRastreio: `BR${n}`, dataHora: new Date().toISOString(), descricao: 'Postado' } }), 201],
            ['fila', () => pedir(loja, 'GET', '/fila/lista'), 200],
          ];
          for (const [passo, fazer, esperado] of passos) {
            const answer = await fazer().catch((error: Error) => ({ status: 0, text: error.message }) as ApiResponse);
            respondidas += 1;
            if (answer.status !== esperado) falhas.push(`${passo}: ${answer.status} ${answer.text.slice(0, 200)}`);
            if (passo === 'abrir' && answer.status === 201) criados[n].set(key, answer.body.idAtendimento);
          }
          await pace;
        }
      };
      const clientes = lojas.map((_, n) => cliente(n));

      const mortes: string[] = [];
      for (const processo of todos) {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        processo.replica!.child.kill('SIGKILL');
        await processo.replica!.stop();
        mortes.push(processo.name);
        // Started again at once, as the kubelet does, under the same load.
        processo.replica = await startReplica(stack, processo.service, processo.name, processo.env);
      }
      carregando = false;
      await Promise.all(clientes);

      process.stdout.write(`${respondidas} requests while ${mortes.length} replicas were killed one after another (${mortes.join(', ')}); ${falhas.length} failed\n`);
      expect(mortes).toHaveLength(todos.length);
      expect(respondidas).toBeGreaterThan(100);
      expect(falhas).toEqual([]);
      // Each key opened one conversation, however many times its request was sent.
      for (const [n, loja] of lojas.entries()) expect((await pedir(loja, 'GET', '/atendimentos')).body.total).toBe(criados[n].size);
    } finally {
      await Promise.all(todos.map((processo) => processo.replica?.stop()));
    }
  }, 600_000);
});

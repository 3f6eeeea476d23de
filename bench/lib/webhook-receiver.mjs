// The webhook benchmarks' receiver (bench/webhook-latency.mjs, bench/webhook-throughput.mjs): a
// store's HTTPS endpoint on loopback, in a process of its own, and the stores' webhooks at it.
import { fork } from 'node:child_process';
import { inParallel, sleep } from './bench-kit.mjs';

/**
 * An HTTPS webhook receiver in a child process (./webhook-receiver-process.mjs) with the stack's
 * localhost certificate, answering 200 after `delayMs`. `arrivals()` gives the requests that
 * arrived since the last call, as [webhook-id, arrival time in epoch ms].
 */
export async function startReceiver(stack, delayMs) {
  const gateway = stack.env['api-gateway'];
  const child = fork(new URL('./webhook-receiver-process.mjs', import.meta.url), [gateway.TLS_CERT_FILE, gateway.TLS_KEY_FILE, String(delayMs)], { stdio: 'inherit' });
  const port = await new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(message.port));
    child.once('exit', (code) => reject(new Error(`receiver exited with ${code}`)));
  });
  let pending = [];
  const waiting = [];
  child.on('message', (message) => {
    if (message.arrivals) pending.push(...message.arrivals);
    if (message.flushed) waiting.shift()?.();
  });
  return {
    pid: child.pid,
    url: (path) => `https://localhost:${port}${path}`,
    /** Everything that arrived so far (the child reports every 100 ms, and at once when asked). */
    async arrivals() {
      await new Promise((resolve) => {
        waiting.push(resolve);
        child.send('flush');
      });
      const taken = pending;
      pending = [];
      return taken;
    },
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', resolve);
      child.kill();
    }),
  };
}

/**
 * Creates `count` stores (with tokens) through the API, each with a webhook at the receiver, and
 * takes the registrations' verification calls off the receiver.
 */
export async function storesWithWebhooks(bench, count, receiver) {
  const stores = await bench.createStores(count);
  await inParallel(stores.length, 16, async (index) => {
    const { idLoja, token } = stores[index];
    const response = await bench.api('POST', '/webhook/novo', { token, body: { url: receiver.url(`/loja/${idLoja}`) } });
    if (response.status !== 201) throw new Error(`POST /webhook/novo: ${response.status} ${JSON.stringify(response.body)}`);
  });
  await sleep(2000);
  await receiver.arrivals();
  return stores;
}

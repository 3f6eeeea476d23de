import { readFileSync } from 'node:fs';
import { connect, type ConnectionOptions, type TLSSocket } from 'node:tls';
import { LISTENER_TIMEOUTS } from '@trilha/observability';
import { testStack } from '@trilha/testing';

const stack = testStack();
const ca = readFileSync(stack.caFile);

/** A TLS connection to the gateway's public port, once the handshake is done (or its error). */
function tlsConnection(options: ConnectionOptions = {}): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: 'localhost', port: stack.ports.gateway, ca, ...options }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/**
 * Sends `start`, then `more` every `everyMs` ms, until the gateway closes the connection: what it
 * answered, and how long the connection stayed open.
 */
async function trickle(start: string, more: string, everyMs: number): Promise<{ answer: string; openMs: number }> {
  const socket = await tlsConnection();
  const started = Date.now();
  socket.write(start);
  const timer = setInterval(() => socket.write(more), everyMs);
  let answer = '';
  socket.on('data', (chunk) => (answer += chunk));
  await new Promise((resolve) => socket.once('close', resolve));
  clearInterval(timer);
  return { answer, openMs: Date.now() - started };
}

describe('the public listener (docs/DEPLOY.md, Security)', () => {
  it('closes a connection whose body comes a byte every 4 s, with a 408, within the request timeout', async () => {
    const { answer, openMs } = await trickle('PUT /v1/pedido HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{', ' ', 4000);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(openMs).toBeGreaterThanOrEqual(LISTENER_TIMEOUTS.request - 1000);
    expect(openMs).toBeLessThan(LISTENER_TIMEOUTS.request + 2 * LISTENER_TIMEOUTS.checkEvery + 1000);
  }, LISTENER_TIMEOUTS.request + 30_000);

  it('closes a connection whose headers never end, with a 408, within the headers timeout', async () => {
    const { answer, openMs } = await trickle('GET /v1/openapi.json HTTP/1.1\r\nHost: localhost\r\n', 'X-Devagar: 1\r\n', 2000);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(openMs).toBeGreaterThanOrEqual(LISTENER_TIMEOUTS.headers - 1000);
    expect(openMs).toBeLessThan(LISTENER_TIMEOUTS.headers + 2 * LISTENER_TIMEOUTS.checkEvery + 1000);
  });

  it.each(['AES128-SHA', 'AES128-GCM-SHA256', 'ECDHE-RSA-AES128-SHA', 'ECDHE-RSA-AES256-SHA384', 'DHE-RSA-AES128-GCM-SHA256'])(
    'refuses a TLS 1.2 handshake offering only %s',
    async (ciphers) => {
      await expect(tlsConnection({ maxVersion: 'TLSv1.2', ciphers })).rejects.toThrow(/handshake failure|no shared cipher/);
    },
  );

  it.each(['ECDHE-RSA-AES128-GCM-SHA256', 'ECDHE-RSA-AES256-GCM-SHA384', 'ECDHE-RSA-CHACHA20-POLY1305'])('takes a TLS 1.2 handshake offering %s', async (ciphers) => {
    const socket = await tlsConnection({ maxVersion: 'TLSv1.2', ciphers });
    expect({ protocol: socket.getProtocol(), cipher: socket.getCipher().name }).toEqual({ protocol: 'TLSv1.2', cipher: ciphers });
    socket.destroy();
  });

  it('speaks TLS 1.3 with its own suites', async () => {
    const socket = await tlsConnection();
    expect(socket.getProtocol()).toBe('TLSv1.3');
    expect(socket.getCipher().name).toMatch(/^TLS_(AES_(128|256)_GCM|CHACHA20_POLY1305)_SHA(256|384)$/);
    socket.destroy();
  });
});

import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestStack } from './stack';

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Date.now() when the request's body had arrived. */
  at: number;
  /** The status the receiver wrote, once written. */
  answered?: number;
  /** The connection closed before the receiver answered (the sender died or gave up). */
  aborted: boolean;
}

/**
 * How the receiver answers a request: a status (after `delayMs`), or one of the ways a bad
 * receiver behaves: never answering, closing the connection, or answering garbage.
 */
export type Answer =
  | { status: number; headers?: Record<string, string>; body?: string; delayMs?: number }
  | { hang: true }
  | { closeConnection: true }
  | { garbage: true };

/** Whether a request is the verification call of a registration (docs/API.md section 7). */
export function isVerification(request: ReceivedRequest): boolean {
  return (JSON.parse(request.body) as { evento: string }).evento === 'webhook.verificacao';
}

export type Behaviour = (request: ReceivedRequest, indexOnPath: number) => Answer | Promise<Answer>;

/**
 * A real HTTPS webhook receiver on loopback, for end-to-end tests: it serves the stack's own
 * localhost certificate (which the delivery service trusts through WEBHOOK_CA_FILE), records
 * every request, and answers as each path's behaviour says (200 by default).
 */
export class WebhookReceiver {
  readonly received: ReceivedRequest[] = [];
  private readonly behaviours = new Map<string, Behaviour>();

  private readonly server: Server;

  private constructor(stack: TestStack) {
    const gateway = stack.env['api-gateway'];
    this.server = createServer({ cert: readFileSync(gateway.TLS_CERT_FILE), key: readFileSync(gateway.TLS_KEY_FILE) });
    this.server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', async () => {
        const path = request.url ?? '/';
        const received: ReceivedRequest = { path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now(), aborted: false };
        response.on('close', () => {
          if (!response.writableFinished) received.aborted = true;
        });
        const index = this.received.filter((r) => r.path === path).length;
        this.received.push(received);
        const behaviour: Behaviour = this.behaviours.get(path) ?? (() => ({ status: 200 }));
        const answer = await behaviour(received, index);
        if ('hang' in answer || received.aborted) return;
        if ('closeConnection' in answer) return void request.socket.destroy();
        if ('garbage' in answer) {
          request.socket.end('this is not HTTP\r\n\r\n');
          return;
        }
        if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
        if (received.aborted) return;
        response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        response.end(answer.body ?? '{}', () => (received.answered = answer.status));
      });
    });
  }

  /** A receiver listening on a free loopback port, for one test. */
  static async start(stack: TestStack): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver(stack);
    await receiver.listen();
    return receiver;
  }

  /** A receiver for a whole test file: it listens before the file's first test and closes after its last. */
  static forTestFile(stack: TestStack): WebhookReceiver {
    const receiver = new WebhookReceiver(stack);
    beforeAll(() => receiver.listen());
    afterAll(() => receiver.close());
    return receiver;
  }

  private async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  /** An https URL of this receiver (by host name, as a store would register it). */
  url(path: string): string {
    return `https://localhost:${(this.server.address() as AddressInfo).port}${path}`;
  }

  on(path: string, behaviour: Behaviour): void {
    this.behaviours.set(path, behaviour);
  }

  requests(path: string): ReceivedRequest[] {
    return this.received.filter((request) => request.path === path);
  }

  /** The notifications sent to a path: its requests but the registration's verification. */
  notifications(path: string): ReceivedRequest[] {
    return this.requests(path).filter((request) => !isVerification(request));
  }

  /** How many times each event (by `webhook-id`) was confirmed with a 200 on paths under a prefix. */
  confirmations(pathPrefix: string): Map<string, number> {
    const counts = new Map<string, number>();
    for (const request of this.received) {
      if (request.answered !== 200 || !request.path.startsWith(pathPrefix) || isVerification(request)) continue;
      const id = String(request.headers['webhook-id']);
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return counts;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

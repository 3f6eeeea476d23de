import { readFileSync } from 'node:fs';
import { Agent, request as undiciRequest } from 'undici';

export interface ApiResponse<T = any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  status: number;
  headers: Record<string, string>;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is (for malformed or oversize bodies). */
  rawBody?: string;
  token?: string;
  headers?: Record<string, string>;
}

/**
 * A client address of its own for a test: the gateway trusts X-Forwarded-For from loopback
 * (TRUSTED_PROXIES), so per-address limits (30/min on /autenticacao) do not leak between tests.
 */
export function clientAddress(): Record<string, string> {
  const octet = () => Math.floor(Math.random() * 254) + 1;
  return { 'x-forwarded-for': `10.${octet()}.${octet()}.${octet()}` };
}

/** An HTTPS client for the stack's gateway that trusts its self-signed certificate. */
export function apiClient(baseUrl: string, caFile: string) {
  const dispatcher = new Agent({ connect: { ca: readFileSync(caFile) }, connections: 64 });
  return async function call<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> { // eslint-disable-line @typescript-eslint/no-explicit-any
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const url = path.startsWith('https://') ? path : `${baseUrl}${path}`;
    const response = await undiciRequest(url, { method: method as 'GET', headers, body, dispatcher });
    const text = await response.body.text();
    const flat = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)]));
    let parsed: unknown = text;
    if (/json/.test(flat['content-type'] ?? '') && text) parsed = JSON.parse(text);
    return { status: response.statusCode, headers: flat, body: parsed as T, text };
  };
}

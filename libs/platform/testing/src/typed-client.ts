import { readFileSync } from 'node:fs';
import { trilhaApiClient, type TrilhaApi } from '@trilha/api-client';
import { Agent, fetch as undiciFetch } from 'undici';
import type { TestStack } from './stack';

export type { TrilhaApi };

/** The typed client of @trilha/api-client against a test stack, as a store with `token` (or anonymous). */
export function typedApiClient(stack: TestStack, token?: string): TrilhaApi {
  const dispatcher = new Agent({ connect: { ca: readFileSync(stack.caFile) } });
  return trilhaApiClient({
    baseUrl: stack.baseUrl,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    // The stack's certificate is its own: requests go through an agent that trusts its CA.
    fetch: async (request: Request) =>
      (await undiciFetch(request.url, {
        method: request.method,
        headers: Object.fromEntries(request.headers),
        body: request.body ? await request.text() : undefined,
        dispatcher,
      })) as unknown as Response,
  });
}

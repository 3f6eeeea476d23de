import { readFileSync } from 'node:fs';
import createClient, { type Client } from 'openapi-fetch';
import { Agent, fetch as undiciFetch } from 'undici';
import type { paths } from './generated/trilha-api';
import type { TestStack } from './stack';

export type TrilhaApi = Client<paths>;

/**
 * A client typed from the OpenAPI document the build writes (`npm run build` generates
 * `generated/trilha-api.d.ts` with openapi-typescript): a test that uses it stops compiling when
 * the document does not say what the test sends or reads.
 */
export function typedApiClient(stack: TestStack, token?: string): TrilhaApi {
  const dispatcher = new Agent({ connect: { ca: readFileSync(stack.caFile) } });
  return createClient<paths>({
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

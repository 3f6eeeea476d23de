import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths, webhooks } from './generated/trilha-api';

export type { components, paths, webhooks };

/** The public API v1 as the OpenAPI document describes it: every path, method, parameter and answer. */
export type TrilhaApi = Client<paths>;

/** A schema of the document's `components.schemas`, by name. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/**
 * A client typed from the OpenAPI document the build writes (`npm run build` generates
 * `generated/trilha-api.d.ts` with openapi-typescript from dist/openapi.json): code that uses it
 * stops compiling when the document does not say what it sends or reads. Used by the store
 * portal in the browser and by the tests in Node.js, so it imports nothing of either.
 */
export function trilhaApiClient(options: ClientOptions): TrilhaApi {
  return createClient<paths>(options);
}

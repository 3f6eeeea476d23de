import { trilhaApiClient, type Schema } from '@trilha/api-client';

/**
 * The public API, as this page's origin serves it: the portal session's cookie goes with every
 * request (same origin), and the browser sends `Origin` on every change, which the gateway checks.
 * Nothing here is private to the portal: the same routes, rules and limits as a store's backend.
 */
export const api = trilhaApiClient({ baseUrl: `${location.origin}/v1`, credentials: 'same-origin' });

export type Problema = Schema<'Problema'>;

/** Thrown when an answer is not the expected one: carries the problem document the API sent. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problema: Partial<Problema>,
  ) {
    super(problema.detail ?? problema.title ?? `A API respondeu ${status}.`);
  }
}

type Answer<T> = { data?: T; error?: unknown; response: Response };

/** The answer's body when it succeeded; otherwise an ApiError with the API's problem document. */
export async function ok<T>(call: Promise<Answer<T>>): Promise<T> {
  let answer: Answer<T>;
  try {
    answer = await call;
  } catch {
    throw new ApiError(0, { title: 'Sem conexão', detail: 'Não foi possível falar com a API. Verifique a conexão e tente de novo.' });
  }
  if (answer.response.ok) return answer.data as T;
  const problema = answer.error && typeof answer.error === 'object' ? (answer.error as Partial<Problema>) : {};
  throw new ApiError(answer.response.status, problema);
}

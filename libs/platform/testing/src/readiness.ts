import type { TestStack } from './stack';

/** What a service's ops port `/readyz` answers: `ready`, `degraded` (an optional dependency fails) or `not ready`. */
export interface Readiness {
  httpStatus: number;
  status: 'ready' | 'degraded' | 'not ready';
  checks: Record<string, string>;
}

/** The `/readyz` of the service on `opsPort`; undefined while its ops port does not answer. */
export async function readiness(opsPort: number): Promise<Readiness | undefined> {
  const response = await fetch(`http://127.0.0.1:${opsPort}/readyz`).catch(() => undefined);
  if (!response) return undefined;
  const { status, checks } = (await response.json()) as Omit<Readiness, 'httpStatus'>;
  return { httpStatus: response.status, status, checks };
}

/** A probe for `eventually`: true once every service of the stack is ready with every dependency answering. */
export async function everyServiceReady(stack: TestStack): Promise<true | undefined> {
  const answers = await Promise.all(Object.values(stack.ports.ops).map(readiness));
  return answers.every((answer) => answer?.status === 'ready') || undefined;
}

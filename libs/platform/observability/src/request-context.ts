import { AsyncLocalStorage } from 'node:async_hooks';
import { trace } from '@opentelemetry/api';
import { ATTR_ID_LOJA } from './trace-context';

/** What every log line and every event written during one request or message carries. */
export interface RequestContext {
  correlationId: string;
  /** The event or request that caused the work at hand. */
  causationId: string | null;
  idLoja?: number;
}

const storage = new AsyncLocalStorage<RequestContext>();

export const requestContext = {
  run<T>(value: RequestContext, work: () => T): T {
    return storage.run(value, work);
  },
  get(): RequestContext | undefined {
    return storage.getStore();
  },
  /** Adds the authenticated store to the current context (and so to every later log line) and to the request's span. */
  setLoja(idLoja: number): void {
    trace.getActiveSpan()?.setAttribute(ATTR_ID_LOJA, idLoja);
    const current = storage.getStore();
    if (current) current.idLoja = idLoja;
  },
};

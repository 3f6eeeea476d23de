import { context, propagation, ROOT_CONTEXT, SpanKind, trace, type Context } from '@opentelemetry/api';

/** The W3C `traceparent` of the active span, to store with an event. */
export function currentTraceparent(): string | null {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

export function currentTraceIds(): { traceId?: string; spanId?: string } {
  const spanContext = trace.getActiveSpan()?.spanContext();
  if (!spanContext || !trace.isSpanContextValid(spanContext)) return {};
  return { traceId: spanContext.traceId, spanId: spanContext.spanId };
}

function contextFrom(traceparent: string | null | undefined): Context {
  return traceparent ? propagation.extract(ROOT_CONTEXT, { traceparent }) : ROOT_CONTEXT;
}

/**
 * Runs `work` inside a span that continues the trace of `traceparent`, as a consumer or a
 * relay does for a message it handles.
 */
export async function withSpanFrom<T>(
  name: string,
  traceparent: string | null | undefined,
  kind: 'consumer' | 'producer' | 'internal',
  attributes: Record<string, string | number>,
  work: () => Promise<T>,
): Promise<T> {
  const tracer = trace.getTracer('trilha');
  const spanKind = { consumer: SpanKind.CONSUMER, producer: SpanKind.PRODUCER, internal: SpanKind.INTERNAL }[kind];
  return tracer.startActiveSpan(name, { kind: spanKind, attributes }, contextFrom(traceparent), async (span) => {
    try {
      return await work();
    } catch (error) {
      span.recordException(error as Error);
      throw error;
    } finally {
      span.end();
    }
  });
}

import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context } from '@opentelemetry/api';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { loggedUrl } from './logged-url';

/** Trilha's own spans (a proxy until the service registers its provider, then that provider's). */
const tracer = trace.getTracer('trilha');

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

/**
 * Fastify `onRequest` hook: each request runs inside its server span, continuing the caller's
 * W3C `traceparent`, so its log lines, its forwarded calls and the events it writes share the
 * caller's trace. It stands in for OpenTelemetry's http instrumentation, which binds every
 * listener of every request and response to the trace context and so cost a quarter of a
 * request's CPU in a profile under load; attributes are set only when the span
 * is recorded.
 */
export function traceRequestHook(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const parent = propagation.extract(ROOT_CONTEXT, request.headers);
  const span = tracer.startSpan(request.method, { kind: SpanKind.SERVER }, parent);
  if (span.isRecording()) {
    span.setAttributes({ 'http.request.method': request.method, 'url.path': loggedUrl(request.url.split('?')[0]) });
    reply.raw.once('finish', () => {
      // The route the router matched; a forwarded route is the gateway's catch-all.
      const route = request.routeOptions.url;
      if (route) span.updateName(`${request.method} ${route}`).setAttribute('http.route', route);
      span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    });
  }
  reply.raw.once('close', () => span.end());
  context.with(trace.setSpan(parent, span), done);
}

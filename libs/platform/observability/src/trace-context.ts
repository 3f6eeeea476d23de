import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags, type Attributes, type Context, type Span } from '@opentelemetry/api';
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

/** Where a span continues: a stored or received `traceparent`, or `'active'`, the active span's trace. */
export type SpanParent = string | null | undefined | 'active';

function parentContext(parent: SpanParent): Context {
  return parent === 'active' ? context.active() : contextFrom(parent);
}

/** The attribute naming the store on every span, as on every log line. */
export const ATTR_ID_LOJA = 'idLoja';

export type SpanKindName = 'server' | 'client' | 'producer' | 'consumer' | 'internal';

const SPAN_KINDS: Record<SpanKindName, SpanKind> = {
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  producer: SpanKind.PRODUCER,
  consumer: SpanKind.CONSUMER,
  internal: SpanKind.INTERNAL,
};

export interface SpanOptions {
  kind: SpanKindName;
  /** Attributes the span starts with; a span whose attributes cost work to build sets them once it knows it is recorded. */
  attributes?: Attributes;
  /** Spans this one follows without being their child, as `traceparent`s (a retry's first attempt). */
  links?: (string | null | undefined)[];
}

/**
 * Starts a span that continues the trace of `parent`, as a consumer, a relay or a delivery
 * attempt does for what it handles. The caller ends it.
 */
export function startSpanFrom(name: string, parent: SpanParent, options: SpanOptions): Span {
  const links = (options.links ?? []).flatMap((link) => {
    const linked = link ? trace.getSpanContext(contextFrom(link)) : undefined;
    return linked && trace.isSpanContextValid(linked) ? [{ context: linked }] : [];
  });
  return tracer.startSpan(name, { kind: SPAN_KINDS[options.kind], attributes: options.attributes, links }, parentContext(parent));
}

/**
 * Runs `work` inside a span started as `startSpanFrom` does. `work` gets the span, to add
 * what it learns (a status code, an offset); a failure is recorded on it as an error and
 * thrown on. Under an active span of a trace the sampler dropped, `work` runs in that span:
 * samplers are parent-based (`WHOLE_TRACE_SAMPLERS`), so a child would record nothing either,
 * and the dropped span carries the trace on as well (a gateway read costs one span, not two).
 */
export async function withSpanFrom<T>(name: string, parent: SpanParent, options: SpanOptions, work: (span: Span) => Promise<T>): Promise<T> {
  const active = parent === 'active' ? trace.getActiveSpan() : undefined;
  if (active && !active.isRecording() && !(active.spanContext().traceFlags & TraceFlags.SAMPLED)) return work(active);
  const span = startSpanFrom(name, parent, options);
  try {
    return await context.with(trace.setSpan(parentContext(parent), span), () => work(span));
  } catch (error) {
    span.recordException(error as Error);
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    span.end();
  }
}

/** The `traceparent` of a span, to store or send where its trace goes on. */
export function traceparentOf(span: Span): string | null {
  const carrier: Record<string, string> = {};
  propagation.inject(trace.setSpan(ROOT_CONTEXT, span), carrier);
  return carrier.traceparent ?? null;
}

/** Routes that a catch-all handler resolved itself (the gateway's forwarded routes), by request. */
const resolvedRoutes = new WeakMap<FastifyRequest, string>();

/**
 * Names a request's server span after the route a catch-all handler resolved (e.g. the
 * gateway's `/v1/atendimentos/{idAtendimento}`) rather than after the catch-all's own pattern.
 */
export function setServerRoute(request: FastifyRequest, route: string): void {
  resolvedRoutes.set(request, route);
}

/** The route template a request matched (the resolved one, else the router's), never its raw URL; undefined when none matched. */
export function serverRoute(request: FastifyRequest): string | undefined {
  return resolvedRoutes.get(request) ?? request.routeOptions.url;
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
      const route = serverRoute(request);
      if (route) span.updateName(`${request.method} ${route}`).setAttribute('http.route', route);
      span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    });
  }
  reply.raw.once('close', () => span.end());
  context.with(trace.setSpan(parent, span), done);
}

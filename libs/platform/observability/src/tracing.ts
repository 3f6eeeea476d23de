/**
 * OpenTelemetry tracing. Imported by each app's `tracing.ts`, which main.ts imports before
 * anything else, so that the tracer is in place before any span is started.
 * This file must import nothing but OpenTelemetry.
 */
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { ZipkinExporter } from '@opentelemetry/exporter-zipkin';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOffSampler, BatchSpanProcessor, NodeTracerProvider, ParentBasedSampler, type SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

let provider: NodeTracerProvider | undefined;

/**
 * The samplers of OTEL_TRACES_SAMPLER that keep a trace whole: each follows the decision its
 * parent carries in `traceparent`, so a trace sampled at the gateway is sampled at every hop,
 * the webhook attempts made minutes later from the stored `traceparent` included. The others
 * (`always_on`, `always_off`, `traceidratio`) decide at every hop again and would cut traces
 * into pieces; a service set to one of them does not start.
 */
export const WHOLE_TRACE_SAMPLERS = ['parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;

/**
 * Starts tracing for a service. Spans go to every backend configured by the standard variables:
 * Zipkin's span API when OTEL_EXPORTER_ZIPKIN_ENDPOINT is set (the local stack), OTLP/HTTP when
 * OTEL_EXPORTER_OTLP_ENDPOINT is (the operator's collector in Kubernetes). Traces are sampled
 * as OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG say (default `parentbased_always_on`:
 * every trace), read by the SDK itself. Without a backend nothing is recorded unless the
 * caller's `traceparent` asks for it, but trace context is still created and propagated
 * (W3C `traceparent`), so logs and Kafka headers carry trace ids either way.
 *
 * Spans: each HTTP request (`traceRequestHook`), each forwarded request and webhook attempt
 * (HTTP clients), each command (`EventStore.transaction`), each message published and each
 * message handled (`withSpanFrom`). No library is instrumented: OpenTelemetry's http
 * instrumentation costs about a quarter of a request's CPU under load.
 */
export function startTracing(serviceName: string): void {
  if (provider) return;
  const sampler = process.env.OTEL_TRACES_SAMPLER;
  if (sampler && !(WHOLE_TRACE_SAMPLERS as readonly string[]).includes(sampler)) {
    throw new Error(`OTEL_TRACES_SAMPLER=${sampler} would sample each hop on its own and cut traces apart; use one of ${WHOLE_TRACE_SAMPLERS.join(', ')}`);
  }
  const exporters = [
    ...(process.env.OTEL_EXPORTER_ZIPKIN_ENDPOINT ? [new ZipkinExporter()] : []),
    ...(process.env.OTEL_EXPORTER_OTLP_ENDPOINT ? [new OTLPTraceExporter()] : []),
  ];
  const spanProcessors: SpanProcessor[] = exporters.map((exporter) => new BatchSpanProcessor(exporter));
  provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: process.env.OTEL_SERVICE_NAME ?? serviceName }),
    spanProcessors,
    ...(spanProcessors.length === 0 && { sampler: new ParentBasedSampler({ root: new AlwaysOffSampler() }) }),
  });
  provider.register();
}

export async function stopTracing(): Promise<void> {
  await provider?.shutdown();
  provider = undefined;
}

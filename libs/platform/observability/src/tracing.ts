/**
 * OpenTelemetry tracing. Imported by each app's `tracing.ts`, which main.ts imports before
 * anything else, so that the tracer is in place before any span is started.
 * This file must import nothing but OpenTelemetry.
 */
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOffSampler, BatchSpanProcessor, NodeTracerProvider, ParentBasedSampler } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

let provider: NodeTracerProvider | undefined;

/**
 * Starts tracing for a service. Spans are exported over OTLP/HTTP when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set, sampled as OTEL_TRACES_SAMPLER says (the SDK's default:
 * every trace). Without an exporter nothing is recorded unless the caller's `traceparent` asks
 * for it, but trace context is still created and propagated (W3C `traceparent`), so logs and
 * Kafka headers carry trace ids either way.
 *
 * Spans: each HTTP request (`traceRequestHook`), each Kafka message handled and each
 * outbox message published (`withSpanFrom`). No library is instrumented: OpenTelemetry's http
 * instrumentation cost a quarter of a request's CPU (docs/BENCHMARKS.md).
 */
export function startTracing(serviceName: string): void {
  if (provider) return;
  const exporting = Boolean(process.env.OTEL_EXPORTER_OTLP_ENDPOINT);
  provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: process.env.OTEL_SERVICE_NAME ?? serviceName }),
    spanProcessors: exporting ? [new BatchSpanProcessor(new OTLPTraceExporter())] : [],
    ...(!exporting && { sampler: new ParentBasedSampler({ root: new AlwaysOffSampler() }) }),
  });
  provider.register();
}

export async function stopTracing(): Promise<void> {
  await provider?.shutdown();
  provider = undefined;
}

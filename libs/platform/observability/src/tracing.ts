/**
 * OpenTelemetry tracing. Imported by each app's `tracing.ts`, which main.ts imports before
 * anything else: the instrumentation patches `http` only if it loads after this.
 * This file must import nothing but OpenTelemetry.
 */
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
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
 * Only `http` is instrumented: one span per request in and out is what a trace across the
 * services needs, and a span per Express middleware cost more CPU than the request's own work.
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
  registerInstrumentations({
    instrumentations: [new HttpInstrumentation({ ignoreIncomingRequestHook: (request) => request.url === '/healthz' })],
  });
}

export async function stopTracing(): Promise<void> {
  await provider?.shutdown();
  provider = undefined;
}

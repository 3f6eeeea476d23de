/**
 * OpenTelemetry tracing. Imported by each app's `tracing.ts`, which main.ts imports before
 * anything else: instrumentations patch `http` and `express` only if they load after this.
 * This file must import nothing but OpenTelemetry.
 */
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

let provider: NodeTracerProvider | undefined;

/**
 * Starts tracing for a service. Spans are exported over OTLP/HTTP when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set; without it, trace context is still created and
 * propagated (W3C `traceparent`) so logs and Kafka headers carry trace ids.
 */
export function startTracing(serviceName: string): void {
  if (provider) return;
  const spanProcessors: SpanProcessor[] = process.env.OTEL_EXPORTER_OTLP_ENDPOINT
    ? [new BatchSpanProcessor(new OTLPTraceExporter())]
    : [];
  provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: process.env.OTEL_SERVICE_NAME ?? serviceName }),
    spanProcessors,
  });
  provider.register();
  registerInstrumentations({
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (request) => request.url === '/healthz' }),
      new ExpressInstrumentation(),
    ],
  });
}

export async function stopTracing(): Promise<void> {
  await provider?.shutdown();
  provider = undefined;
}

import { randomBytes } from 'node:crypto';
import { context, propagation, ROOT_CONTEXT, trace, type Span } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { currentTraceparent, withSpanFrom } from './trace-context';

describe('withSpanFrom', () => {
  const spans = new InMemorySpanExporter();

  beforeAll(() => new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }).register());
  afterAll(() => {
    trace.disable();
    context.disable();
    propagation.disable();
  });

  /** Runs `work` inside the trace `traceparent` names, as a request carrying it would. */
  const under = <T>(traceparent: string, work: () => Promise<T>) => context.with(propagation.extract(ROOT_CONTEXT, { traceparent }), work);
  const traceparent = (flags: '00' | '01') => `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-${flags}`;

  it('under a sampled trace: a recorded child span, which the work runs in', async () => {
    const parent = traceparent('01');
    let inside: string | null = null;
    await under(parent, () => withSpanFrom('command', 'active', { kind: 'internal' }, async () => void (inside = currentTraceparent())));
    const [span] = spans.getFinishedSpans().filter((finished) => finished.spanContext().traceId === parent.split('-')[1]);
    expect(span.parentSpanContext?.spanId).toBe(parent.split('-')[2]);
    expect(inside).toBe(`00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`);
  });

  it('under a trace the sampler dropped: the work runs in the active span, and no span is made', async () => {
    const parent = traceparent('00');
    let given: Span | undefined;
    let inside: string | null = null;
    await under(parent, () =>
      withSpanFrom('command', 'active', { kind: 'internal' }, async (span) => {
        given = span;
        inside = currentTraceparent();
      }),
    );
    expect(given?.spanContext().spanId).toBe(parent.split('-')[2]);
    expect(inside).toBe(parent);
    expect(spans.getFinishedSpans().filter((finished) => finished.spanContext().traceId === parent.split('-')[1])).toEqual([]);
  });

  it('with no active span: a recorded root span', async () => {
    const before = spans.getFinishedSpans().length;
    await withSpanFrom('relay', 'active', { kind: 'producer' }, async () => undefined);
    const made = spans.getFinishedSpans().slice(before);
    expect(made.map((span) => [span.name, span.parentSpanContext])).toEqual([['relay', undefined]]);
  });

  it('records a failure on the span and throws it on', async () => {
    await expect(withSpanFrom('failing', undefined, { kind: 'internal' }, async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(spans.getFinishedSpans().at(-1)).toMatchObject({ name: 'failing', status: { code: 2 } });
  });
});

import { startTracing, WHOLE_TRACE_SAMPLERS } from './tracing';

describe('startTracing', () => {
  afterEach(() => delete process.env.OTEL_TRACES_SAMPLER);

  it.each(['always_on', 'traceidratio', 'always_off'])('refuses OTEL_TRACES_SAMPLER=%s, which would cut traces apart', (sampler) => {
    process.env.OTEL_TRACES_SAMPLER = sampler;
    expect(() => startTracing('test-service')).toThrow(`OTEL_TRACES_SAMPLER=${sampler} would sample each hop on its own and cut traces apart; use one of ${WHOLE_TRACE_SAMPLERS.join(', ')}`);
  });
});

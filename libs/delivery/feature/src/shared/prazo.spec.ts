import { Prazo } from './prazo';

describe('Prazo', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('aborts its signal with a TimeoutError once its time is up', () => {
    const prazo = new Prazo(10_000);
    jest.advanceTimersByTime(9_999);
    expect(prazo.signal.aborted).toBe(false);
    jest.advanceTimersByTime(1);
    expect(prazo.signal.aborted).toBe(true);
    expect(prazo.signal.reason).toMatchObject({ name: 'TimeoutError' });
  });

  it('leaves no timer behind once ended', () => {
    const prazo = new Prazo(10_000);
    prazo.encerrar();
    expect(jest.getTimerCount()).toBe(0);
    jest.advanceTimersByTime(20_000);
    expect(prazo.signal.aborted).toBe(false);
  });
});

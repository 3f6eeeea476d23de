import { AGENDA_PADRAO, comJitter, lerAgenda, lerDuracao, lerRetryAfter } from './agenda';

describe('retry schedule', () => {
  it('reads the default schedule of docs/API.md section 7', () => {
    expect(lerAgenda(AGENDA_PADRAO)).toEqual([10_000, 60_000, 300_000, 1_800_000, 7_200_000]);
  });

  it('reads compressed schedules', () => {
    expect(lerAgenda('200ms, 400ms,1s,1.5s,2s')).toEqual([200, 400, 1000, 1500, 2000]);
  });

  it.each([
    ['', /interval/],
    ['10s,abc', /"abc"/],
    ['0s', /longer than zero/],
    ['1s,2s,3s,4s,5s,6s', /at most 5/],
    ['1m,10s', /must not decrease/],
  ])('refuses %p', (texto, reason) => {
    expect(() => lerAgenda(texto)).toThrow(reason);
  });

  it('reads a duration, in days too', () => {
    expect(lerDuracao('5d')).toBe(432_000_000);
    expect(lerDuracao(' 24h ')).toBe(86_400_000);
    expect(() => lerDuracao('5 dias')).toThrow(/"5 dias"/);
    expect(() => lerDuracao('0s')).toThrow(/longer than zero/);
  });

  it('spreads an interval by ±10 %', () => {
    expect(comJitter(10_000, 0)).toBe(9_000);
    expect(comJitter(10_000, 0.5)).toBe(10_000);
    expect(comJitter(10_000, 0.999999)).toBe(11_000);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const agora = Date.parse('2026-03-01T12:00:00Z');
    expect(lerRetryAfter('120', agora)).toBe(120_000);
    expect(lerRetryAfter('Sun, 01 Mar 2026 12:00:30 GMT', agora)).toBe(30_000);
    expect(lerRetryAfter('Sun, 01 Mar 2026 11:00:00 GMT', agora)).toBe(0);
    expect(lerRetryAfter(undefined, agora)).toBeUndefined();
    expect(lerRetryAfter('soon', agora)).toBeUndefined();
    expect(lerRetryAfter('-5', agora)).toBeUndefined();
  });
});

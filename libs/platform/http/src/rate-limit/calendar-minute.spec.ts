import { calendarMinute } from './calendar-minute';

describe('calendarMinute', () => {
  const at = (iso: string) => calendarMinute(Date.parse(iso));

  it('counts whole seconds to the next minute', () => {
    expect(at('2026-11-22T10:00:00.000Z').secondsToNext).toBe(60);
    expect(at('2026-11-22T10:00:15.000Z').secondsToNext).toBe(45);
    expect(at('2026-11-22T10:00:15.200Z').secondsToNext).toBe(45);
  });

  it('never says zero, even in the last millisecond', () => {
    expect(at('2026-11-22T10:00:59.999Z').secondsToNext).toBe(1);
  });

  it('puts two moments of one minute in the same window', () => {
    expect(at('2026-11-22T10:00:00.000Z').minute).toBe(at('2026-11-22T10:00:59.999Z').minute);
    expect(at('2026-11-22T10:01:00.000Z').minute).toBe(at('2026-11-22T10:00:00.000Z').minute + 1);
  });
});

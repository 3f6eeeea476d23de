/** The calendar minute a moment falls in, and the whole seconds left until the next one. */
export function calendarMinute(nowMs: number): { minute: number; secondsToNext: number; endMs: number } {
  const minute = Math.floor(nowMs / 60_000);
  const endMs = (minute + 1) * 60_000;
  return { minute, endMs, secondsToNext: Math.max(1, Math.ceil((endMs - nowMs) / 1000)) };
}

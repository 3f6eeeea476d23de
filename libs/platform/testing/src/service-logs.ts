import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';

export type LogLine = Record<string, unknown>;

/** What has been read of one log file so far: services only append to their logs. */
interface FollowedLog {
  bytesRead: number;
  pending: string;
  lines: LogLine[];
}

const followed = new Map<string, FollowedLog>();

/**
 * The JSON log lines a service of the stack has written so far. Each call reads only what was
 * appended since the last one, so polling a busy service's log stays cheap.
 */
export function serviceLogs(dataDir: string, service: string): LogLine[] {
  const file = join(dataDir, 'logs', `${service}.log`);
  if (!existsSync(file)) return [];
  let log = followed.get(file);
  if (!log) followed.set(file, (log = { bytesRead: 0, pending: '', lines: [] }));
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size > log.bytesRead) {
      const chunk = Buffer.alloc(size - log.bytesRead);
      readSync(fd, chunk, 0, chunk.length, log.bytesRead);
      log.bytesRead = size;
      const text = log.pending + chunk.toString('utf8');
      const complete = text.lastIndexOf('\n') + 1;
      log.pending = text.slice(complete);
      for (const line of text.slice(0, complete).split('\n')) {
        if (line.startsWith('{')) log.lines.push(JSON.parse(line) as LogLine);
      }
    }
  } finally {
    closeSync(fd);
  }
  return log.lines;
}

/**
 * How long a test waits for something asynchronous before it gives up: generous, because a
 * 2-core machine running the whole suite (or a CI neighbour) can hold a consumer back for seconds.
 */
export const PATIENCE_MS = 30_000;

/** Polls until `probe` returns a value, returning it; fails naming `what` after the timeout. */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = PATIENCE_MS, everyMs = 50): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Which events a service's consumer is to have handled: by id, or by type and store. */
export type EventsToHandle = string[] | { type: string; idLoja: number };

/**
 * Waits for the signal that a service's Kafka consumer is done with events: its log line
 * `handled <type>` (or `duplicate <type>`, a redelivery) for each of them, written after the
 * handler's transaction committed. A read of what the handler wrote is then consistent.
 */
export async function handledBy(dataDir: string, service: string, events: EventsToHandle, timeoutMs = PATIENCE_MS): Promise<void> {
  const outcome = /^(handled|duplicate) /;
  const matches = Array.isArray(events)
    ? (line: LogLine) => events.includes(line.eventId as string)
    : (line: LogLine) => line.idLoja === events.idLoja && (line.msg as string).endsWith(` ${events.type}`);
  const describe = Array.isArray(events) ? `events ${events.join(', ')}` : `${events.type} of store ${events.idLoja}`;
  await eventually(`${service} to log that it handled ${describe}`, () => {
    const done = serviceLogs(dataDir, service).filter((line) => typeof line.msg === 'string' && outcome.test(line.msg) && matches(line));
    return Array.isArray(events) ? events.every((id) => done.some((line) => line.eventId === id)) || undefined : done.length > 0 || undefined;
  }, timeoutMs);
}

import type { IncomingHttpHeaders } from 'node:http';

/** A request header's value (Node joins repeated headers, but for the few it keeps as lists: their first). */
export function header(request: { headers: IncomingHttpHeaders }, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

import type { IncomingHttpHeaders } from 'node:http';

/** A request header's value (of the few headers Node keeps as a list, such as set-cookie, the first). */
export function header(request: { headers: IncomingHttpHeaders }, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * How long every Trilha listener (the gateway's public port, the services' internal ports, the
 * ops ports) waits for a client, so a client that sends slowly, or not at all, cannot hold a
 * connection and its buffers as long as it likes. In milliseconds.
 */
export const LISTENER_TIMEOUTS = {
  /** From the connection (or the previous answer) to the request's last header. */
  headers: 10_000,
  /** From the connection (or the previous answer) to the request's last body byte: 1 MiB at 280 kbit/s. */
  request: 30_000,
  /**
   * A connection with no byte in either direction, also while a route works: longer than the
   * slowest route (a webhook registration waits up to 10 s for the receiver, the gateway up to
   * 15 s for a service).
   */
  idle: 60_000,
  /**
   * An open connection between requests: longer than the idle timeout of common load balancers
   * (60 s) and of the gateway's connections to the services (30 s), so the client side closes first.
   */
  keepAlive: 72_000,
  /** How often Node checks the headers and request timeouts (its default, 30 s, would let them run that much late). */
  checkEvery: 1_000,
} as const;

/** The options of Node's `http.createServer`/`https.createServer` that apply LISTENER_TIMEOUTS. */
export const listenerTimeoutOptions = {
  headersTimeout: LISTENER_TIMEOUTS.headers,
  requestTimeout: LISTENER_TIMEOUTS.request,
  keepAliveTimeout: LISTENER_TIMEOUTS.keepAlive,
  connectionsCheckingInterval: LISTENER_TIMEOUTS.checkEvery,
} as const;

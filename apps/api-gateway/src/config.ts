import { resolve } from 'node:path';
import { z } from 'zod';
import { booleanFlag, platformSettings, port, redisUrl, serviceConfigSchema } from '@trilha/config';
import type { ServiceDatabase } from '@trilha/event-store';
import { CONNECTIONS_PER_SERVICE, type ApiRoute } from '@trilha/gateway-routing';
import { API_GATEWAY_SERVICE } from '@trilha/lojas';

/**
 * The replicas of a service the gateway forwards to, comma-separated: one URL where a load
 * balancer (a Kubernetes Service) stands in front of them, or each replica's own.
 */
const serviceReplicas = z
  .string()
  .transform((list) => list.split(',').map((url) => url.trim()).filter((url) => url !== ''))
  .pipe(z.array(z.url()).min(1, 'needs at least one URL'));

export const gatewayConfigSchema = serviceConfigSchema({
  ...platformSettings,
  PUBLIC_PORT: port.default(8443),
  /** TLS of the public port. Not needed when an ingress terminates TLS (TLS_TERMINATED_BY_PROXY). */
  TLS_CERT_FILE: z.string().min(1).optional(),
  TLS_KEY_FILE: z.string().min(1).optional(),
  TLS_TERMINATED_BY_PROXY: booleanFlag.default(false),
  /**
   * The proxies whose X-Forwarded-* headers are believed: comma-separated addresses, CIDRs or
   * names such as `loopback`. Empty: none, so every request counts as from its own address and,
   * with TLS_TERMINATED_BY_PROXY, as plain HTTP (403).
   */
  TRUSTED_PROXIES: z
    .string()
    .default('loopback')
    .transform((list) => list.split(',').map((proxy) => proxy.trim()).filter((proxy) => proxy !== '')),
  /** The https origin (and path) where the public reaches this gateway: the base of the store portal's links. */
  PUBLIC_BASE_URL: z
    .string()
    .regex(/^https:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, 'must be an https:// URL without query or fragment')
    .transform((url) => url.replace(/\/+$/, '')),
  /**
   * The store portal's app as the build writes it (dist/portal: index.html, assets/, each file
   * with its .br and .gz); without its index.html, /portal/ answers 404.
   */
  PORTAL_DIR: z.string().min(1).default(resolve(__dirname, '../../../portal')),
  REDIS_URL: redisUrl,
  TOKEN_SIGNING_SECRET: z.string().min(32, 'must be at least 32 characters'),
  TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
  ADMIN_API_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  RATE_LIMIT_DEFAULT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /** Internal ports of the services the gateway forwards to: `<SERVICE>_URL` for each (`serviceUrls`), one URL or several. */
  TRACKING_SERVICE_URL: serviceReplicas,
  ATENDIMENTO_SERVICE_URL: serviceReplicas,
  DELIVERY_SERVICE_URL: serviceReplicas,
  /**
   * Requests one store (or client address, without a token) may have in flight to one service
   * through this replica: 8 of its CONNECTIONS_PER_SERVICE (128), so sixteen stores must be slow
   * at once before a request of another store waits for a connection, while 8 requests in flight
   * still carry hundreds a second of a store's requests that the service answers in milliseconds.
   */
  CONCURRENT_REQUESTS_PER_STORE: z.coerce.number().int().min(1).max(CONNECTIONS_PER_SERVICE).default(8),
  /** Shared with the services: proves a forwarded call comes from the gateway. */
  INTERNAL_API_TOKEN: z.string().min(32, 'must be at least 32 characters'),
  /** Identifies this replica's consumer group for store events (each replica reads them all). */
  INSTANCE_ID: z.string().regex(/^[A-Za-z0-9_.-]+$/).optional(),
})
  .refine((config) => config.TLS_TERMINATED_BY_PROXY || (config.TLS_CERT_FILE && config.TLS_KEY_FILE), {
    message: 'TLS_CERT_FILE and TLS_KEY_FILE are required unless TLS_TERMINATED_BY_PROXY=true',
    path: ['TLS_CERT_FILE'],
  });

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;

export const gatewayDatabase = (config: GatewayConfig): ServiceDatabase => ({
  url: config.DATABASE_URL,
  schema: API_GATEWAY_SERVICE.schema,
  poolSize: config.DATABASE_POOL_SIZE,
  migrations: API_GATEWAY_SERVICE.migrations,
});

/**
 * Where each service the gateway forwards to listens: every service the OpenAPI document routes a
 * route to (its `x-trilha-servico`, the name of the service that declares it), at its
 * `<SERVICE>_URL` setting (TRACKING_SERVICE_URL for tracking-service).
 */
export function serviceUrls(routes: readonly ApiRoute[], config: GatewayConfig): Record<string, string[]> {
  const services = new Set(routes.map((route) => route.service).filter((service) => service !== API_GATEWAY_SERVICE.name));
  return Object.fromEntries(
    [...services].map((service) => {
      const setting = `${service.toUpperCase().replaceAll('-', '_')}_URL`;
      const url = (config as Record<string, unknown>)[setting];
      if (!Array.isArray(url)) throw new Error(`the OpenAPI document routes to ${service}, and the gateway has no ${setting} setting`);
      return [service, url];
    }),
  );
}

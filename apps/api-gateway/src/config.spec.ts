import { apiCatalog } from '@trilha/gateway-routing';
import { gatewayConfigSchema, serviceUrls, type GatewayConfig } from './config';

const config = {
  TRACKING_SERVICE_URL: ['http://tracking:8080'],
  ATENDIMENTO_SERVICE_URL: ['http://atendimento:8080'],
  DELIVERY_SERVICE_URL: ['http://delivery-a:8080', 'http://delivery-b:8080'],
} as GatewayConfig;

const operation = (service: string) => ({ get: { operationId: `op-${service}`, 'x-trilha-servico': service } });

describe('serviceUrls: where the gateway forwards, from the services the OpenAPI document names', () => {
  it("gives every service the document routes to its <SERVICE>_URL setting, and none to the gateway's own routes", () => {
    const routes = apiCatalog({ paths: { '/loja': operation('api-gateway'), '/pedido': operation('tracking-service'), '/webhook': operation('delivery-service') } });
    expect(serviceUrls(routes, config)).toEqual({ 'tracking-service': ['http://tracking:8080'], 'delivery-service': ['http://delivery-a:8080', 'http://delivery-b:8080'] });
  });

  it('refuses to start with a service the document routes to and no setting says where it is', () => {
    const routes = apiCatalog({ paths: { '/fatura': operation('billing-service') } });
    expect(() => serviceUrls(routes, config)).toThrow('the OpenAPI document routes to billing-service, and the gateway has no BILLING_SERVICE_URL setting');
  });
});

describe('<SERVICE>_URL: one replica or several', () => {
  const settings = (urls: string) => gatewayConfigSchema.safeParse({
    PUBLIC_BASE_URL: 'https://api.example.com',
    DATABASE_URL: 'postgres://u:p@localhost/db', KAFKA_BROKERS: 'localhost:9092', REDIS_URL: 'redis://localhost:6379', TOKEN_SIGNING_SECRET: 'x'.repeat(32), INTERNAL_API_TOKEN: 'y'.repeat(32),
    OPS_PORT: '9000', TLS_TERMINATED_BY_PROXY: 'true', TRACKING_SERVICE_URL: urls, ATENDIMENTO_SERVICE_URL: 'http://a:1', DELIVERY_SERVICE_URL: 'http://d:1',
  });

  it('takes a comma-separated list of URLs, spaces and a trailing comma aside', () => {
    const parsed = settings('http://t1:8080, http://t2:8080,');
    expect(parsed.success && parsed.data.TRACKING_SERVICE_URL).toEqual(['http://t1:8080', 'http://t2:8080']);
  });

  it('refuses an empty list and anything that is not a URL, naming the setting', () => {
    for (const urls of ['', ' , ', 'http://t1:8080,tracking']) {
      const parsed = settings(urls);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0].path[0]).toBe('TRACKING_SERVICE_URL');
    }
  });
});

describe('PUBLIC_BASE_URL: where the public reaches the gateway, the base of portal links', () => {
  const settings = (url: string | undefined) => gatewayConfigSchema.safeParse({
    PUBLIC_BASE_URL: url,
    DATABASE_URL: 'postgres://u:p@localhost/db', KAFKA_BROKERS: 'localhost:9092', REDIS_URL: 'redis://localhost:6379', TOKEN_SIGNING_SECRET: 'x'.repeat(32), INTERNAL_API_TOKEN: 'y'.repeat(32),
    OPS_PORT: '9000', TLS_TERMINATED_BY_PROXY: 'true', TRACKING_SERVICE_URL: 'http://t:1', ATENDIMENTO_SERVICE_URL: 'http://a:1', DELIVERY_SERVICE_URL: 'http://d:1',
  });

  it('takes an https origin, with a path, without its trailing slash', () => {
    const parsed = settings('https://api.example.com/trilha/');
    expect(parsed.success && parsed.data.PUBLIC_BASE_URL).toBe('https://api.example.com/trilha');
  });

  it('is required, and refuses plain http and a query or fragment, naming the setting', () => {
    for (const url of [undefined, 'http://api.example.com', 'https://api.example.com/?a=1', 'https://api.example.com/#x']) {
      const parsed = settings(url);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0].path[0]).toBe('PUBLIC_BASE_URL');
    }
  });
});

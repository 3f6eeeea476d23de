import { apiCatalog } from '@trilha/gateway-routing';
import { serviceUrls, type GatewayConfig } from './config';

const config = {
  TRACKING_SERVICE_URL: 'http://tracking:8080',
  ATENDIMENTO_SERVICE_URL: 'http://atendimento:8080',
  DELIVERY_SERVICE_URL: 'http://delivery:8080',
} as GatewayConfig;

const operation = (service: string) => ({ get: { operationId: `op-${service}`, 'x-trilha-servico': service } });

describe('serviceUrls: where the gateway forwards, from the services the OpenAPI document names', () => {
  it("gives every service the document routes to its <SERVICE>_URL setting, and none to the gateway's own routes", () => {
    const routes = apiCatalog({ paths: { '/loja': operation('api-gateway'), '/pedido': operation('tracking-service'), '/webhook': operation('delivery-service') } });
    expect(serviceUrls(routes, config)).toEqual({ 'tracking-service': 'http://tracking:8080', 'delivery-service': 'http://delivery:8080' });
  });

  it('refuses to start with a service the document routes to and no setting says where it is', () => {
    const routes = apiCatalog({ paths: { '/fatura': operation('billing-service') } });
    expect(() => serviceUrls(routes, config)).toThrow('the OpenAPI document routes to billing-service, and the gateway has no BILLING_SERVICE_URL setting');
  });
});

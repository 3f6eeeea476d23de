import type { RouteOptions } from 'fastify';
import { loggedUrl, SECRET_PARAMS, secretRouteHook } from './logged-url';

const route = (url: string, config?: object) => ({ method: 'GET', url, config, handler: () => undefined }) as unknown as RouteOptions;

describe('loggedUrl', () => {
  beforeAll(() => {
    secretRouteHook(route('/rastreio/:token', { [SECRET_PARAMS]: ['token'] }));
    secretRouteHook(route('/v1/autenticacao/:codigo', { [SECRET_PARAMS]: ['codigo'] }));
    secretRouteHook(route('/v1/lojas/:idLoja/chaves/:chave', { [SECRET_PARAMS]: ['chave'] }));
    secretRouteHook(route('/v1/pedidos/:idPedido'));
  });

  it('shows a secret route parameter as …, keeping the query', () => {
    expect(loggedUrl('/rastreio/AbC123-_xyz')).toBe('/rastreio/…');
    expect(loggedUrl('/rastreio/AbC123?x=1')).toBe('/rastreio/…?x=1');
    expect(loggedUrl('/v1/autenticacao/A1aM0cXpHki4SkcwSEvGNfekSIz5gsuv')).toBe('/v1/autenticacao/…');
    expect(loggedUrl('/v1/lojas/7/chaves/segredo')).toBe('/v1/lojas/7/chaves/…');
  });

  it('matches the path as the router does, %-decoded, and shows it as the route', () => {
    expect(loggedUrl('/v1/autentica%63ao/A1aM0cXpHki4SkcwSEvGNfekSIz5gsuv')).toBe('/v1/autenticacao/…');
    expect(loggedUrl('/%72astreio/AbC123')).toBe('/rastreio/…');
    expect(loggedUrl('/v1/autenticacao/A1a%2FM0c')).toBe('/v1/autenticacao/…');
  });

  it('shows a path that only begins like a secret route so too', () => {
    expect(loggedUrl('/rastreio/AbC123/')).toBe('/rastreio/…');
    expect(loggedUrl('/v1//autenticacao/A1aM0c/mais')).toBe('/v1/autenticacao/…/mais');
    expect(loggedUrl('/V1/AUTENTICACAO/A1aM0c')).toBe('/v1/autenticacao/…');
    expect(loggedUrl('/v1/autenticacao/%ZZA1aM0c')).toBe('/v1/autenticacao/…');
  });

  it('leaves every other URL as it is', () => {
    expect(loggedUrl('/v1/pedidoRastreio?chave=numeroPedido&valor=PED-1')).toBe('/v1/pedidoRastreio?chave=numeroPedido&valor=PED-1');
    expect(loggedUrl('/v1/rastreio/abc')).toBe('/v1/rastreio/abc');
    expect(loggedUrl('/v1/autenticacao')).toBe('/v1/autenticacao');
    expect(loggedUrl('/v1/pedidos/42')).toBe('/v1/pedidos/42');
  });
});

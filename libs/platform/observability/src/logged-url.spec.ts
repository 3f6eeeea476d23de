import { loggedUrl } from './logged-url';

describe('loggedUrl', () => {
  it('keeps the public tracking page token out of request logs', () => {
    expect(loggedUrl('/rastreio/AbC123-_xyz')).toBe('/rastreio/…');
    expect(loggedUrl('/rastreio/AbC123?x=1')).toBe('/rastreio/…?x=1');
  });

  it('keeps a store account code out of request logs', () => {
    expect(loggedUrl('/v1/autenticacao/A1aM0cXpHki4SkcwSEvGNfekSIz5gsuv')).toBe('/v1/autenticacao/…');
  });

  it('leaves every other path as it is', () => {
    expect(loggedUrl('/v1/pedidoRastreio?chave=numeroPedido&valor=PED-1')).toBe('/v1/pedidoRastreio?chave=numeroPedido&valor=PED-1');
    expect(loggedUrl('/v1/rastreio/abc')).toBe('/v1/rastreio/abc');
  });
});

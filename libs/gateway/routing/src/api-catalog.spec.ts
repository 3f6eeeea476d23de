import { apiCatalog, matchRoute, methodsOf } from './api-catalog';

const document = {
  paths: {
    '/pedidoRastreio': { get: { operationId: 'consultarRastreio', 'x-trilha-servico': 'tracking-service', 'x-trilha-limite-por-minuto': 120 } },
    '/pedidoRastreio/evento/{hash}': { put: { operationId: 'corrigirEvento', 'x-trilha-servico': 'tracking-service' } },
    '/pedidoRastreio/evento': {
      post: { operationId: 'registrarEvento', 'x-trilha-servico': 'tracking-service', parameters: [{ in: 'header', name: 'Idempotency-Key', schema: { type: 'string' } }] },
    },
    '/admin/lojas': { post: { operationId: 'criarLoja', 'x-trilha-servico': 'api-gateway' } },
    '/webhook': { get: { operationId: 'consultarWebhook', 'x-trilha-servico': 'delivery-service', security: [{ bearer: [] }, { portal: [] }] } },
  },
};

describe('apiCatalog', () => {
  const routes = apiCatalog(document);

  it('matches method and path templates, literal paths first', () => {
    expect(matchRoute(routes, 'POST', '/pedidoRastreio/evento')).toMatchObject({ id: 'registrarEvento', service: 'tracking-service' });
    expect(matchRoute(routes, 'PUT', '/pedidoRastreio/evento/abc123')).toMatchObject({ id: 'corrigirEvento' });
    expect(matchRoute(routes, 'GET', '/pedidoRastreio')).toMatchObject({ limitPerMinute: 120 });
  });

  it('matches nothing for an unknown path or method', () => {
    expect(matchRoute(routes, 'GET', '/pedidoRastreio/evento')).toBeUndefined();
    expect(matchRoute(routes, 'PUT', '/pedidoRastreio/evento/a/b')).toBeUndefined();
    expect(matchRoute(routes, 'GET', '/nada')).toBeUndefined();
  });

  it('lists the methods a path has, HEAD with GET', () => {
    expect(methodsOf(routes, '/pedidoRastreio')).toEqual(['GET', 'HEAD']);
    expect(methodsOf(routes, '/pedidoRastreio/evento')).toEqual(['POST']);
    expect(methodsOf(routes, '/nada')).toEqual([]);
  });

  it('gives a path to its most concrete template only, as OpenAPI matches concrete paths first', () => {
    const entregas = apiCatalog({
      paths: {
        '/webhook/entregas/{idEntrega}': { get: { operationId: 'consultarEntrega', 'x-trilha-servico': 'delivery-service' } },
        '/webhook/entregas/recuperar': { post: { operationId: 'recuperarEntregas', 'x-trilha-servico': 'delivery-service' } },
      },
    });
    expect(matchRoute(entregas, 'POST', '/webhook/entregas/recuperar')?.id).toBe('recuperarEntregas');
    expect(matchRoute(entregas, 'GET', '/webhook/entregas/recuperar')).toBeUndefined();
    expect(methodsOf(entregas, '/webhook/entregas/recuperar')).toEqual(['POST']);
    expect(matchRoute(entregas, 'GET', '/webhook/entregas/0193a5c2-7d4e-7b1a-9c3f-2e8d5a6b4c10')?.id).toBe('consultarEntrega');
    expect(methodsOf(entregas, '/webhook/entregas/0193a5c2-7d4e-7b1a-9c3f-2e8d5a6b4c10')).toEqual(['GET', 'HEAD']);
  });

  it('knows which operations honour an Idempotency-Key, from their documented header', () => {
    expect(matchRoute(routes, 'POST', '/pedidoRastreio/evento')?.idempotencyKey).toBe(true);
    expect(matchRoute(routes, 'PUT', '/pedidoRastreio/evento/abc123')?.idempotencyKey).toBe(false);
  });

  it('knows which operations accept a portal session, from their documented security', () => {
    expect(matchRoute(routes, 'GET', '/webhook')?.portalSession).toBe(true);
    expect(matchRoute(routes, 'GET', '/pedidoRastreio')?.portalSession).toBe(false);
  });

  it('refuses an operation that names no service', () => {
    expect(() => apiCatalog({ paths: { '/x': { get: { operationId: 'x' } } } })).toThrow(/GET \/x has no x-trilha-servico/);
  });
});

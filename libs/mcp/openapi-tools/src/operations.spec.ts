import { findOperation, listOperations, type OpenApiDocument } from './operations';
import { toHttpCall, toolInputSchema } from './tool-call';

const document: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'Trilha API', version: '1.0.0' },
  paths: {
    '/agentes/{idAgente}/conversar': {
      post: {
        operationId: 'conversarAgente',
        summary: 'Conversa com um agente.',
        parameters: [{ name: 'idAgente', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/ConversarRequest' } } } },
        responses: { '200': { description: 'A resposta.' } },
      },
    },
    '/fila/lista': {
      get: {
        operationId: 'listarFila',
        summary: 'Eventos pendentes.',
        parameters: [{ name: 'limite', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 500 } }],
        responses: { '200': { description: 'A fila.' } },
        'x-trilha-limite-por-minuto': 100,
      },
    },
    '/autenticacao/{codigo}': { get: { operationId: 'autenticar', summary: 'Token.', security: [], responses: {} } },
  },
  components: {
    schemas: {
      ConversarRequest: {
        type: 'object',
        properties: { mensagem: { type: 'string', maxLength: 4000 }, idConversa: { type: 'string' } },
        required: ['mensagem'],
      },
    },
  },
};

describe('operations from the OpenAPI document', () => {
  const operations = listOperations(document);

  it('lists every operation with its route, authentication and limit', () => {
    expect(operations.map((o) => [o.id, o.method, o.route, o.authentication, o.limitPerMinute])).toEqual([
      ['conversarAgente', 'POST', '/agentes/{idAgente}/conversar', 'token', undefined],
      ['listarFila', 'GET', '/fila/lista', 'token', 100],
      ['autenticar', 'GET', '/autenticacao/{codigo}', 'nenhuma', undefined],
    ]);
  });

  it('resolves body schema references', () => {
    expect(findOperation(operations, 'POST', '/agentes/{idAgente}/conversar').body?.schema).toMatchObject({ properties: { mensagem: { maxLength: 4000 } } });
  });

  it('makes one input schema of path, query and body fields under their own names', () => {
    expect(toolInputSchema(findOperation(operations, 'POST', '/agentes/{idAgente}/conversar'))).toEqual({
      type: 'object',
      properties: { idAgente: { type: 'string' }, mensagem: { type: 'string', maxLength: 4000 }, idConversa: { type: 'string' } },
      required: ['idAgente', 'mensagem'],
      additionalProperties: false,
    });
  });

  it('turns arguments back into the HTTP call', () => {
    expect(toHttpCall(findOperation(operations, 'POST', '/agentes/{idAgente}/conversar'), { idAgente: 'a b', mensagem: 'oi' })).toEqual({
      method: 'POST',
      path: '/agentes/a%20b/conversar',
      body: { mensagem: 'oi' },
    });
    expect(toHttpCall(findOperation(operations, 'GET', '/fila/lista'), { limite: 10 })).toEqual({ method: 'GET', path: '/fila/lista?limite=10', body: undefined });
  });

  it('fails loudly when an operation the tools need is missing', () => {
    expect(() => findOperation(operations, 'GET', '/nada')).toThrow('the OpenAPI document has no GET /nada');
  });
});

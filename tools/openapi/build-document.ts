import 'reflect-metadata';
import { Test } from '@nestjs/testing';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { httpAdapter, OPENAPI_EXTENSIONS, PORTAL_COOKIE, PORTAL_SECURITY_SCHEME } from '@trilha/http';
import { API_SOURCES } from './api-sources';
import { documentEveryAnswer } from './problem-responses';
import { addValidationConstraints } from './validation-constraints';
import { webhooksSection } from './webhooks';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

function baseDocument() {
  return new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Trilha API')
    .setDescription(
      'Rastreamento manual de pedidos, atendimentos, agentes virtuais e notificações para lojas online. ' +
        'Autentique com GET /autenticacao/{codigo} e envie `Authorization: Bearer <token>`. ' +
        'Erros seguem o RFC 9457 (`application/problem+json`).',
    )
    .setVersion('1.0.0')
    .addServer('/v1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'Token da loja, obtido em GET /autenticacao/{codigo}.' }, 'bearer')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Admin-Key', description: 'Chave do operador (ADMIN_API_KEY).' }, 'admin-key')
    .addApiKey(
      {
        type: 'apiKey',
        in: 'cookie',
        name: PORTAL_COOKIE,
        description:
          'Sessão do portal da loja, aberta por POST /portal/sessoes com um link de POST /portal/links. Vale, no lugar do token, só nas operações que a listam; com Authorization, vale o token. Uma sessão `ver` só consulta; alterações pedem o cabeçalho Origin deste endereço.',
      },
      PORTAL_SECURITY_SCHEME,
    )
    .addSecurityRequirements('bearer')
    .build();
}

function addSchema(document: OpenAPIObject, name: string, schema: unknown): void {
  const schemas = document.components!.schemas! as Record<string, unknown>;
  if (schemas[name] && JSON.stringify(schemas[name]) !== JSON.stringify(schema)) throw new Error(`two different schemas are named ${name}`);
  schemas[name] = schema;
}

/**
 * Builds the OpenAPI document of the whole public API from every service's HTTP module, plus
 * the notifications sent to stores' webhooks (`webhooks`), marking each operation with the service that serves it and each token-free operation with
 * an empty security requirement, and documenting every error it can answer. Nothing is
 * connected: providers are stubbed.
 */
export async function buildOpenApiDocument(): Promise<OpenAPIObject> {
  const document = { ...baseDocument(), paths: {}, components: { ...baseDocument().components, schemas: {} } } as OpenAPIObject;
  for (const source of API_SOURCES) {
    const moduleRef = await Test.createTestingModule({ imports: [source.httpRoutes()] }).useMocker(() => ({})).compile();
    const app = moduleRef.createNestApplication(httpAdapter(), { logger: false });
    const partial = SwaggerModule.createDocument(app, baseDocument());
    for (const [path, operations] of Object.entries(partial.paths)) {
      const target = (document.paths[path] ??= {}) as Record<string, unknown>;
      for (const method of METHODS) {
        const operation = operations[method] as (Record<string, unknown> & { security?: unknown }) | undefined;
        if (!operation) continue;
        if (target[method]) throw new Error(`${method.toUpperCase()} ${path} is declared by two services`);
        operation[OPENAPI_EXTENSIONS.service] = source.name;
        if (operation[OPENAPI_EXTENSIONS.withoutToken] && !operation.security) operation.security = [];
        target[method] = operation;
      }
    }
    for (const [name, schema] of Object.entries(partial.components?.schemas ?? {})) addSchema(document, name, schema);
    await app.close();
  }
  addValidationConstraints(document);
  documentEveryAnswer(document);
  const { webhooks, schemas } = webhooksSection();
  for (const [name, schema] of Object.entries(schemas)) addSchema(document, name, schema);
  return { ...document, webhooks } as OpenAPIObject;
}

import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';

/** The OpenAPI 3.1 document of the public API, built from the controllers and their DTOs. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Trilha API')
    .setDescription('Rastreamento manual de pedidos, atendimentos, agentes virtuais e notificações para lojas online.')
    .setVersion('1.0.0')
    .addServer('/v1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'Token da loja, obtido em GET /autenticacao/{codigo}.' })
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Admin-Key' }, 'admin-key')
    .addSecurityRequirements('bearer')
    .build();
  return SwaggerModule.createDocument(app, config, { ignoreGlobalPrefix: true });
}

/** `GET /v1/openapi.json` and `GET /v1/docs` (Swagger UI, served from the package, no CDN). */
export function serveOpenApi(app: INestApplication): void {
  SwaggerModule.setup('v1/docs', app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: 'v1/openapi.json',
    useGlobalPrefix: false,
    customSiteTitle: 'Trilha API v1',
  });
}

import type { INestApplication } from '@nestjs/common';
import { SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** Written by the build (tools/openapi) from every service's HTTP module; dist/openapi.json. */
export const OPENAPI_FILE = resolve(__dirname, '../../../openapi.json');

export function loadOpenApiDocument(file = OPENAPI_FILE): OpenAPIObject {
  return JSON.parse(readFileSync(file, 'utf8')) as OpenAPIObject;
}

/** `GET /v1/openapi.json` and `GET /v1/docs` (Swagger UI, served from the package, no CDN). */
export function serveOpenApi(app: INestApplication, document: OpenAPIObject): void {
  SwaggerModule.setup('v1/docs', app, document, {
    jsonDocumentUrl: 'v1/openapi.json',
    useGlobalPrefix: false,
    customSiteTitle: 'Trilha API v1',
  });
}

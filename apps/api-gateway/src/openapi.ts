import type { INestApplication } from '@nestjs/common';
import { SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { OPENAPI_EXTENSIONS } from '@trilha/http';

/** Written by the build (tools/openapi) from every service's HTTP module; dist/openapi.json. */
export const OPENAPI_FILE = resolve(__dirname, '../../../openapi.json');

const DAY_MS = 86_400_000;

export function loadOpenApiDocument(file = OPENAPI_FILE): OpenAPIObject {
  return JSON.parse(readFileSync(file, 'utf8')) as OpenAPIObject;
}

/**
 * The document as it is served at `now`: a copy whose every property marked with
 * OPENAPI_EXTENSIONS.exampleDaysAgo has as example the instant that many days before, so an
 * example of a value that must be recent is accepted on whatever day it is read.
 */
export function documentAt(document: OpenAPIObject, now: number): OpenAPIObject {
  const copy = structuredClone(document);
  const stamp = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    const daysAgo = (node as Record<string, unknown>)[OPENAPI_EXTENSIONS.exampleDaysAgo];
    if (typeof daysAgo === 'number') Object.assign(node, { example: `${new Date(now - daysAgo * DAY_MS).toISOString().slice(0, 19)}Z` });
    Object.values(node).forEach(stamp);
  };
  stamp(copy);
  return copy;
}

/** `GET /v1/openapi.json` and `GET /v1/docs` (Swagger UI, served from the package, no CDN). */
export function serveOpenApi(app: INestApplication, document: OpenAPIObject): void {
  SwaggerModule.setup('v1/docs', app, document, {
    jsonDocumentUrl: 'v1/openapi.json',
    useGlobalPrefix: false,
    customSiteTitle: 'Trilha API v1',
    patchDocumentOnRequest: (_request, _response, built) => documentAt(built, Date.now()),
  });
}

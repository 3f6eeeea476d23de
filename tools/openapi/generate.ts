import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { buildOpenApiDocument } from './build-document';

/** Build step: writes dist/openapi.json, which the gateway serves and routes by. */
export const OPENAPI_FILE = resolve(__dirname, '../../openapi.json');

buildOpenApiDocument().then(
  (document) => {
    mkdirSync(dirname(OPENAPI_FILE), { recursive: true });
    writeFileSync(OPENAPI_FILE, `${JSON.stringify(document, null, 2)}\n`);
    const operations = Object.values(document.paths).reduce((count, path) => count + Object.keys(path).length, 0);
    process.stderr.write(`openapi: ${operations} operations → ${OPENAPI_FILE}\n`);
  },
  (error: Error) => {
    process.stderr.write(`openapi: ${error.stack}\n`);
    process.exit(1);
  },
);

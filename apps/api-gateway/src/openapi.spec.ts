import type { OpenAPIObject } from '@nestjs/swagger';
import { OPENAPI_EXTENSIONS } from '@trilha/http';
import { documentAt } from './openapi';

describe('the OpenAPI document as served', () => {
  it('gives a property that must be recent an example that many days before the moment it is served', () => {
    const built = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {},
      components: { schemas: { Pedido: { type: 'object', properties: { desde: { type: 'string', [OPENAPI_EXTENSIONS.exampleDaysAgo]: 1 }, nome: { type: 'string', example: 'Ana' } } } } },
    } as unknown as OpenAPIObject;
    const served = documentAt(built, Date.parse('2026-11-26T14:33:38.512Z'));
    expect(served.components!.schemas!.Pedido).toMatchObject({ properties: { desde: { example: '2026-11-25T14:33:38Z' }, nome: { example: 'Ana' } } });
    // The built document stays as it was: each request gets its own copy.
    expect(JSON.stringify(built)).not.toContain('example":"2026');
  });
});

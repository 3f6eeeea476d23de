/** What a request class's OpenAPI schema says beyond its properties, by class name (`tools/openapi` reads it). */
export const OPENAPI_SCHEMA_EXTRAS = new Map<string, Record<string, unknown>>();

/**
 * Adds keywords to a request class's OpenAPI schema that no property decorator can say, such
 * as `minProperties` for a body that must carry at least one of its optional fields.
 */
export function ApiSchemaExtras(extras: Record<string, unknown>): ClassDecorator {
  return (target) => void OPENAPI_SCHEMA_EXTRAS.set(target.name, extras);
}

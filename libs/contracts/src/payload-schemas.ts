import { isDeepStrictEqual } from 'node:util';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import type { TopicContract } from './validate-message';

/** A JSON schema as class-validator-jsonschema writes one. */
export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  $ref?: string;
  [keyword: string]: unknown;
}

const DEFINITIONS = '#/definitions/';

/** The schema with every `$ref` to another payload class replaced by that class's schema. */
function inline(schema: unknown, definitions: Record<string, JsonSchema>): unknown {
  if (Array.isArray(schema)) return schema.map((item) => inline(item, definitions));
  if (schema === null || typeof schema !== 'object') return schema;
  const { $ref, ...rest } = schema as JsonSchema;
  const referenced = typeof $ref === 'string' && $ref.startsWith(DEFINITIONS) ? definitions[$ref.slice(DEFINITIONS.length)] : undefined;
  const own = Object.fromEntries(Object.entries(rest).map(([keyword, value]) => [keyword, inline(value, definitions)]));
  if (referenced) return { ...own, ...(inline(referenced, definitions) as object) };
  return $ref === undefined ? own : { $ref, ...own };
}

/** The JSON schema of every event type's payload in a topic's contract, by type. */
export function payloadSchemas(contract: TopicContract): Record<string, JsonSchema> {
  const definitions = validationMetadatasToSchemas() as Record<string, JsonSchema>;
  return Object.fromEntries(Object.entries(contract).map(([type, { data }]) => [type, inline(definitions[data.name], definitions) as JsonSchema]));
}

/**
 * What a producer may not do within a topic version (writers are strict: docs/ARCHITECTURE.md,
 * "Events"), found between a topic's payload schemas as published (`before`) and as they are
 * (`after`): an event type or field removed or renamed, a field retyped or its constraints
 * changed (a consumer still validating the old ones would refuse the new values), a field made
 * required or optional, a required field added. Each names its event type and field. Adding an
 * optional field or an event type is not among them.
 */
export function breakingChanges(before: Record<string, JsonSchema>, after: Record<string, JsonSchema>): string[] {
  return Object.entries(before).flatMap(([type, schema]) =>
    after[type] ? objectChanges(`${type} data.`, schema, after[type]) : [`${type}: event type removed or renamed`],
  );
}

function objectChanges(path: string, before: JsonSchema, after: JsonSchema): string[] {
  const wasRequired = new Set(before.required ?? []);
  const isRequired = new Set(after.required ?? []);
  const changes: string[] = [];
  for (const [field, was] of Object.entries(before.properties ?? {})) {
    const name = `${path}${field}`;
    const now = after.properties?.[field];
    if (!now) {
      changes.push(`${name}: removed or renamed`);
      continue;
    }
    if (wasRequired.has(field) && !isRequired.has(field)) changes.push(`${name}: made optional`);
    if (!wasRequired.has(field) && isRequired.has(field)) changes.push(`${name}: made required`);
    const { properties: _was, required: _wasRequired, ...wasKeywords } = was;
    const { properties: _now, required: _nowRequired, ...nowKeywords } = now;
    if (!isDeepStrictEqual(wasKeywords, nowKeywords)) changes.push(`${name}: retyped, was ${JSON.stringify(wasKeywords)}, is ${JSON.stringify(nowKeywords)}`);
    if (was.properties || now.properties) changes.push(...objectChanges(`${name}.`, was, now));
  }
  for (const field of isRequired) {
    if (!before.properties?.[field]) changes.push(`${path}${field}: added as required`);
  }
  return changes;
}

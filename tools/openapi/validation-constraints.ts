import type { OpenAPIObject } from '@nestjs/swagger';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import { OPENAPI_SCHEMA_EXTRAS } from '@trilha/http';

type Schema = Record<string, unknown> & { properties?: Record<string, Schema> };

/** What the validators check that the document says too: lengths, ranges, patterns, enums, sizes, integer types. */
const CONSTRAINTS = ['minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'pattern', 'enum', 'minItems', 'maxItems'];

/** U+0000, which no text of a request may hold (`unacceptableTexts` in @trilha/http refuses it with a 400), as a pattern writes it. */
const NUL = '\\u0000';

/** The pattern of every text a request carries, its fields and its path and query parameters, unless it says a stricter one. */
const TEXT_PATTERN = `^[^${NUL}]*$`;

/** What IsEmail checks beyond the format: at most 64 characters before the @ (RFC 5321); and no U+0000. */
const EMAIL_PATTERN = `^[^@\\s${NUL}]{1,64}@[^@\\s${NUL}]+$`;

/** Copies the validators' constraints of each property onto its schema, keeping what the schema already says. */
function addConstraints(target: Schema, fromValidators: Schema): void {
  if (fromValidators.format === 'email') Object.assign(target, { format: 'email', pattern: target.pattern ?? EMAIL_PATTERN });
  for (const keyword of CONSTRAINTS) {
    if (fromValidators[keyword] !== undefined && target[keyword] === undefined) target[keyword] = fromValidators[keyword];
  }
  if (fromValidators.type === 'integer' && (target.type === 'number' || target.type === undefined)) target.type = 'integer';
}

/**
 * A text without a list of values or a pattern of its own gets TEXT_PATTERN. The patterns of
 * their own (dates, `uf`, `cep`, `chaveNFe`, e-mail addresses) leave U+0000 out themselves.
 */
function refuseNul(target: Schema): void {
  const text = target.type === 'string' || (Array.isArray(target.type) && target.type.includes('string'));
  if (text && target.enum === undefined && target.pattern === undefined) target.pattern = TEXT_PATTERN;
}

/** What several request classes with the same properties all say of one of them (two routes may share a query's shape). */
function agreed(schemas: Schema[]): Schema {
  return Object.fromEntries(Object.entries(schemas[0]).filter(([keyword, value]) => schemas.every((schema) => JSON.stringify(schema[keyword]) === JSON.stringify(value))));
}

/** A property that may also be null, as an optional one of a request (`@IsOptional()` takes null as absent). */
function allowNull(property: Schema): void {
  if (property.$ref || property.allOf) {
    const { description, ...rest } = property;
    for (const key of Object.keys(property)) delete property[key];
    Object.assign(property, { ...(description !== undefined && { description }), anyOf: [rest.$ref ? { $ref: rest.$ref } : { allOf: rest.allOf }, { type: 'null' }] });
  } else if (typeof property.type === 'string') {
    property.type = [property.type, 'null'];
    if (Array.isArray(property.enum) && !property.enum.includes(null)) property.enum = [...property.enum, null];
  }
}

function addPropertyConstraints(target: Schema, fromValidators: Schema): void {
  const required = new Set((fromValidators.required as string[] | undefined) ?? []);
  for (const [name, property] of Object.entries(target.properties ?? {})) {
    const validated = fromValidators.properties?.[name];
    if (!validated) continue;
    if (!property.$ref) {
      addConstraints(property, validated);
      refuseNul(property);
    }
    if (!required.has(name) && !(property.anyOf as Schema[] | undefined)?.some((option) => option.type === 'null')) allowNull(property);
  }
}

/**
 * Makes the document say what validation checks, from the one place it is declared: the
 * class-validator decorators of each request class (and `@ApiSchemaExtras`). Body schemas are
 * matched by class name; optional properties may be null, as validation takes null for absent;
 * an operation's query parameters by the classes whose properties they are (what they all
 * say); every text, path parameters included, refuses U+0000. So a generator of valid
 * requests (a client, a fuzzer) produces what the API accepts.
 */
export function addValidationConstraints(document: OpenAPIObject): void {
  const validators = validationMetadatasToSchemas() as Record<string, Schema>;
  const schemas = document.components!.schemas as Record<string, Schema>;
  for (const [name, schema] of Object.entries(schemas)) {
    if (validators[name]) {
      addPropertyConstraints(schema, validators[name]);
      // A request class's undeclared fields are refused (forbidNonWhitelisted).
      schema.additionalProperties = false;
    }
    Object.assign(schema, OPENAPI_SCHEMA_EXTRAS.get(name) ?? {});
  }
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations) as { parameters?: { in: string; name: string; schema?: Schema }[] }[]) {
      const query = operation.parameters?.filter((parameter) => parameter.in === 'query') ?? [];
      const names = query.map((parameter) => parameter.name).sort().join(',');
      const candidates = query.length === 0 ? [] : Object.values(validators).filter((schema) => Object.keys(schema.properties ?? {}).sort().join(',') === names);
      for (const parameter of operation.parameters ?? []) {
        if (!parameter.schema) continue;
        if (parameter.in === 'query' && candidates.length > 0) addConstraints(parameter.schema, agreed(candidates.map((candidate) => candidate.properties![parameter.name])));
        refuseNul(parameter.schema);
      }
    }
  }
}

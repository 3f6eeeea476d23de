import type { JsonSchema, Operation } from './operations';

/**
 * A tool's arguments are its route's query and path parameters and its body's fields, under
 * the same names (docs/API.md section 9). This is the JSON Schema of those arguments.
 */
export function toolInputSchema(operation: Operation): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const parameter of operation.parameters) {
    properties[parameter.name] = { ...parameter.schema, ...(parameter.description && { description: parameter.description }) };
    if (parameter.required) required.push(parameter.name);
  }
  const body = operation.body?.schema as { properties?: Record<string, JsonSchema>; required?: string[] } | undefined;
  for (const [name, schema] of Object.entries(body?.properties ?? {})) properties[name] = schema;
  required.push(...(body?.required ?? []));
  return { type: 'object', properties, required: [...new Set(required)], additionalProperties: false };
}

export interface HttpCall {
  method: string;
  /** Path below the base URL, query string included. */
  path: string;
  body?: Record<string, unknown>;
}

/** Turns a tool's arguments into the HTTP request of its operation. */
export function toHttpCall(operation: Operation, args: Record<string, unknown>): HttpCall {
  const remaining = { ...args };
  let path = operation.route;
  const query = new URLSearchParams();
  for (const parameter of operation.parameters) {
    const value = remaining[parameter.name];
    delete remaining[parameter.name];
    if (value === undefined || value === null) continue;
    if (parameter.in === 'path') path = path.replace(`{${parameter.name}}`, encodeURIComponent(String(value)));
    else query.set(parameter.name, String(value));
  }
  const search = query.toString();
  return {
    method: operation.method,
    path: search ? `${path}?${search}` : path,
    body: operation.body ? remaining : undefined,
  };
}

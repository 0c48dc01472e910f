import { z } from 'zod';
import type { EnvelopeRules, RestRoute } from './route.js';

// The request half of the OpenAPI document: each route's parameters and body, from the same input declaration that validates it.

export type JsonSchema = Record<string, unknown>;
type ObjectSchema = { properties?: Record<string, JsonSchema>; required?: string[] };

export const TIMESTAMP_FORMAT = "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'";

/** A zod schema as JSON Schema (draft 2020-12, what OpenAPI 3.1 uses), as callers write it: the input side of transforms. */
export const schemaOf = (type: z.ZodType): JsonSchema => {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(type, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return schema;
};

const pathParameters = (route: RestRoute) =>
  [...route.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));

/** The properties of an object schema as parameters of one place (query, header). */
function parametersOf(schema: ObjectSchema | undefined, place: 'query' | 'header') {
  return Object.entries(schema?.properties ?? {}).map(([name, property]) => ({
    name,
    in: place,
    required: schema?.required?.includes(name) ?? false,
    schema: property,
  }));
}

/** A request envelope as its rules check it: the `id` and `version` a route requires, `requesttime` and `request`. */
export function envelopeSchema(rules: EnvelopeRules, request: JsonSchema): JsonSchema {
  const day = rules.requestDayCode ? `; on the server's current UTC date (else ${rules.requestDayCode})` : '';
  return {
    type: 'object',
    properties: {
      id: rules.requestId ? { type: 'string', const: rules.requestId } : { type: 'string' },
      version: rules.requestVersion ? { type: 'string', const: rules.requestVersion } : { type: 'string' },
      requesttime: { type: 'string', description: TIMESTAMP_FORMAT + day, examples: ['2026-01-01T00:00:00.000Z'] },
      metadata: { type: ['object', 'null'] },
      request,
    },
    required: [
      ...(rules.requestId ? ['id'] : []),
      ...(rules.requestVersion ? ['version'] : []),
      ...(rules.requestTime === 'required' ? ['requesttime'] : []),
      'request',
    ],
  };
}

/** A route's `parameters` and `requestBody`, as its input says where the input comes from. */
export function requestParts(route: RestRoute): JsonSchema {
  const { input } = route;
  const path = pathParameters(route);
  const withParameters = (more: unknown[] = []) => (path.length + more.length ? { parameters: [...path, ...more] } : {});
  const body = (content: Record<string, JsonSchema>, required = true) => ({
    requestBody: { required, content: Object.fromEntries(Object.entries(content).map(([type, schema]) => [type, { schema }])) },
  });
  switch (input.from) {
    case 'none':
      return withParameters();
    case 'query':
      return withParameters(parametersOf(schemaOf(input.schema), 'query'));
    case 'body':
      return { ...withParameters(), ...body({ 'application/json': schemaOf(input.schema) }) };
    case 'raw': {
      // {body, headers}: the headers the schema names become header parameters, the body the request body.
      const raw = schemaOf(input.schema) as { properties?: { body?: JsonSchema; headers?: ObjectSchema } };
      return {
        ...withParameters(parametersOf(raw.properties?.headers, 'header')),
        ...body({ [input.contentType ?? '*/*']: raw.properties?.body ?? { type: 'string' } }),
      };
    }
    case 'upload': {
      const file = { type: 'string', contentMediaType: 'application/octet-stream' };
      // The envelope part is a JSON string: {id, version, requesttime, request}.
      const part = input.envelope ? { [input.envelope.field]: { type: 'string', contentMediaType: 'application/json' } } : {};
      const schema = { type: 'object', properties: { file, ...part }, required: ['file', ...Object.keys(part)] };
      return { ...withParameters(), ...body({ 'multipart/form-data': schema }) };
    }
    case 'form': {
      const fields = schemaOf(input.schema) as ObjectSchema;
      const files = { type: 'array', maxItems: input.maxFiles, items: { type: 'string', contentMediaType: 'application/octet-stream' } };
      const schema = { type: 'object', properties: { ...fields.properties, [input.fileField]: files }, required: fields.required ?? [] };
      return { ...withParameters(), ...body({ 'multipart/form-data': schema }) };
    }
    case 'envelope':
      return { ...withParameters(), ...body({ 'application/json': envelopeSchema(input, schemaOf(input.schema)) }, !input.bodyOptional) };
  }
}

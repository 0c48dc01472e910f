import { z } from 'zod';
import type { RestRoute } from './route.js';

type JsonSchema = Record<string, unknown>;

const schemaOf = (type: z.ZodType): JsonSchema => {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(type, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return schema;
};

const errorItems: JsonSchema = {
  type: ['array', 'null'],
  items: { type: 'object', properties: { errorCode: { type: 'string' }, message: { type: 'string' } }, required: ['errorCode', 'message'] },
};

function responseEnvelope(route: RestRoute): JsonSchema {
  if (route.envelope) return route.envelope.schema(schemaOf(route.response));
  return {
    type: 'object',
    properties: {
      id: { type: ['string', 'null'], const: route.id },
      [route.versionKey ?? 'version']: { type: ['string', 'null'] },
      responsetime: { type: 'string', description: "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'" },
      metadata: { type: ['object', 'null'] },
      response: { anyOf: [schemaOf(route.response), { type: 'null' }] },
      errors: errorItems,
    },
    required: ['id', 'responsetime', 'response', 'errors'],
  };
}

function requestParts(route: RestRoute): JsonSchema {
  const { input } = route;
  const pathParams = [...route.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  if (input.from === 'query') {
    const query = schemaOf(input.schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
    const params = Object.entries(query.properties ?? {}).map(([name, schema]) => ({
      name,
      in: 'query',
      required: query.required?.includes(name) ?? false,
      schema,
    }));
    return { parameters: [...pathParams, ...params] };
  }
  if (input.from === 'none') return pathParams.length ? { parameters: pathParams } : {};
  if (input.from === 'body')
    return {
      ...(pathParams.length ? { parameters: pathParams } : {}),
      requestBody: { required: true, content: { 'application/json': { schema: schemaOf(input.schema) } } },
    };
  if (input.from === 'raw') {
    // {body, headers}: the headers the schema names become header parameters, the body the request body.
    const raw = schemaOf(input.schema) as { properties?: { body?: JsonSchema; headers?: { properties?: Record<string, JsonSchema>; required?: string[] } } };
    const headers = raw.properties?.headers;
    const params = Object.entries(headers?.properties ?? {}).map(([name, schema]) => ({
      name,
      in: 'header',
      required: headers?.required?.includes(name) ?? false,
      schema,
    }));
    return {
      parameters: [...pathParams, ...params],
      requestBody: { required: true, content: { [input.contentType ?? '*/*']: { schema: raw.properties?.body ?? { type: 'string' } } } },
    };
  }
  if (input.from === 'upload') {
    const file = { type: 'string', contentMediaType: 'application/octet-stream' };
    // The envelope part is a JSON string: {id, version, requesttime, request}.
    const envelopePart = input.envelope ? { [input.envelope.field]: { type: 'string', contentMediaType: 'application/json' } } : {};
    return {
      ...(pathParams.length ? { parameters: pathParams } : {}),
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: { type: 'object', properties: { file, ...envelopePart }, required: ['file', ...Object.keys(envelopePart)] },
          },
        },
      },
    };
  }
  if (input.from === 'form') {
    const fields = schemaOf(input.schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
    const properties = { ...fields.properties, [input.fileField]: { type: 'array', items: { type: 'string', contentMediaType: 'application/octet-stream' } } };
    return { requestBody: { required: true, content: { 'multipart/form-data': { schema: { type: 'object', properties, required: fields.required ?? [] } } } } };
  }
  return {
    ...(pathParams.length ? { parameters: pathParams } : {}),
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: {
              id: { type: 'string' },
              version: { type: 'string' },
              requesttime: { type: 'string', description: "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'" },
              metadata: { type: ['object', 'null'] },
              request: schemaOf(input.schema),
            },
            required: ['request', ...(input.requestTime === 'required' ? ['requesttime'] : [])],
          },
        },
      },
    },
  };
}

/** The OpenAPI 3.1 document of the REST layer, built from the same route declarations that validate requests. */
export function openApiDocument(routes: readonly RestRoute[], version: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    paths[route.path] ??= {};
    paths[route.path]![route.method] = {
      operationId: route.operation.name,
      summary: route.summary,
      ...requestParts(route),
      responses: {
        200: route.rawSuccess
          ? {
              description: `The answer itself (${route.rawSuccess.contentType}); failures answer the envelope with \`errors\``,
              content: {
                [route.rawSuccess.contentType]: { schema: schemaOf(route.response) },
                'application/json': { schema: responseEnvelope(route) },
              },
            }
          : {
              description: 'Response envelope; failures fill `errors` and leave `response` null',
              content: { 'application/json': { schema: responseEnvelope(route) } },
            },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Identity platform REST API', version },
    components: {
      securitySchemes: { platformToken: { type: 'apiKey', in: 'cookie', name: 'Authorization', description: 'Platform-Token<jwt>' } },
    },
    paths,
  };
}

import { ApolloServer } from '@apollo/server';
import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REST_ROUTES, ROLE_TABLE } from '../../gateway/components.js';
import { createHttpApp } from '../../gateway/http.js';
import type { RequestContext } from '../../lib/context.js';
import { createLogger } from '../../lib/log.js';
import { ManualClock } from '../../lib/time.js';
import type { UploadSpool } from '../../lib/uploads/spool.js';
import type { HandlerDeps } from '../../rest-compat/handler.js';
import { openApiDocument } from '../../rest-compat/openapi.js';
import { expressPath } from '../../rest-compat/route.js';

// The OpenAPI document against the Express app the platform really builds (createHttpApp): every REST route mounted
// is documented, and nothing documented is left unmounted. Requests are never sent: the router's stack is read.

/** What the app mounts beside the REST routes: health, metrics, the document itself, the explorers and GraphiQL's page. */
const NOT_REST = /^get \/(health|metrics|v3\/api-docs|swagger-ui|graphiql|graphql)(\/|$)/;
const report = { status: 'UP' as const, components: {} };

const notCalled = () => Promise.reject(new Error('no request is sent in this test'));
const rest: HandlerDeps = {
  execute: notCalled,
  contextFor: () => {
    throw new Error('no request is sent in this test');
  },
  clock: new ManualClock(),
  maxBodyBytes: 1024 * 1024,
  signResponse: notCalled,
  specOpenEndpoints: false,
  roleTable: ROLE_TABLE,
  uploads: {} as UploadSpool,
};

let server: ApolloServer<RequestContext>;
beforeAll(async () => {
  // /graphql's middleware wants a started server; a one-field schema is enough to build the app around it.
  server = new ApolloServer<RequestContext>({ typeDefs: 'type Query { ok: Boolean }' });
  await server.start();
});
afterAll(() => server?.stop());

const appWith = (graphiql: boolean): Express =>
  createHttpApp({
    server,
    rest,
    routes: REST_ROUTES,
    logger: createLogger('silent'),
    health: { live: () => report, ready: () => Promise.resolve(report), detail: () => Promise.resolve(report) },
    trustProxy: 'loopback',
    corsOrigins: [],
    maxBodyBytes: rest.maxBodyBytes,
    version: '0.0.0-test',
    explorers: { graphiql },
  });

type Layer = { route?: { path: string | string[]; methods: Record<string, boolean> } };

/** `<method> <express path>` of every route layer of the app's router. */
function mountedRoutes(app: Express): string[] {
  const { stack } = (app as unknown as { router: { stack: Layer[] } }).router;
  return stack.flatMap(({ route }) =>
    route ? [route.path].flat().flatMap((path) => Object.keys(route.methods).map((method) => `${method.toLowerCase()} ${path}`)) : [],
  );
}

const doc = openApiDocument(REST_ROUTES, '0.0.0-test', ROLE_TABLE) as {
  paths: Record<string, Record<string, any>>;
  components: { securitySchemes: Record<string, unknown> };
};
const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation })));
const documented = operations.map(({ method, path }) => `${method} ${expressPath(path)}`);

describe('the OpenAPI document against the mounted app', () => {
  it('documents every REST route the app mounts', () => {
    const mounted = mountedRoutes(appWith(true)).filter((route) => !NOT_REST.test(route));
    expect(mounted.length).toBeGreaterThan(100);
    expect(mounted.filter((route) => !documented.includes(route))).toEqual([]);
  });

  it('documents nothing the app leaves unmounted, each route once', () => {
    const mounted = mountedRoutes(appWith(true));
    expect(documented.filter((route) => !mounted.includes(route))).toEqual([]);
    expect(new Set(documented).size).toBe(REST_ROUTES.length);
  });

  it('mounts GraphiQL only when PLATFORM_GRAPHQL_EXPLORER is on; Swagger UI always', () => {
    const off = mountedRoutes(appWith(false));
    expect(off).toEqual(expect.arrayContaining(['get /swagger-ui', 'get /swagger-ui/assets/:name']));
    expect(off).not.toContain('get /graphql');
    expect(off).not.toContain('get /graphiql/assets/:name');
    expect(mountedRoutes(appWith(true))).toEqual(expect.arrayContaining(['get /graphql', 'get /graphiql/assets/:name']));
  });
});

describe('each operation of the document', () => {
  it('has a unique operationId', () => {
    const ids = operations.map(({ operation }) => operation.operationId as string);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declares each path parameter once, and a request body wherever the route reads one', () => {
    for (const route of REST_ROUTES) {
      const operation = doc.paths[route.path]![route.method];
      const inPath = [...route.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => name);
      const declared = ((operation.parameters ?? []) as { name: string; in: string }[]).filter((p) => p.in === 'path').map((p) => p.name);
      expect(declared, `${route.method} ${route.path}`).toEqual(inPath);
      if (route.input.from === 'none' || route.input.from === 'query') expect(operation.requestBody, route.path).toBeUndefined();
      else expect(Object.keys(operation.requestBody.content), route.path).toHaveLength(1);
      if (route.input.from === 'envelope')
        expect(operation.requestBody.content['application/json'].schema.properties.request, route.path).toMatchObject({ type: expect.anything() });
    }
  });

  it('documents the response envelope, the codes the route answers, and who may call', () => {
    for (const route of REST_ROUTES) {
      const operation = doc.paths[route.path]![route.method];
      const envelope = operation.responses['200'].content['application/json'].schema;
      expect(Object.keys(envelope.properties), route.path).toEqual(expect.arrayContaining(['response']));
      const codes = (operation['x-error-codes'] as { code: string }[]).map(({ code }) => code);
      expect(codes, route.path).toContain(route.internalErrorCode);
      if (route.input.from === 'envelope') expect(codes, route.path).toContain(route.codeFor('request', false));
      for (const { code } of operation['x-error-codes']) expect(operation.description, route.path).toContain(`\`${code}\``);
      const access = ROLE_TABLE[route.rootFields[0]!];
      if (access?.kind === 'public') expect(operation.security, route.path).toEqual([]);
      else {
        expect(operation.security, route.path).toEqual(expect.arrayContaining([{ platformCookie: [] }, { bearerToken: [] }]));
        expect(codes, route.path).toContain(route.httpAuthStatus ? 'KER-ATH-401' : 'KER-ATH-006');
      }
      if (access?.kind === 'roles') expect(operation['x-roles'], route.path).toEqual(access.roles);
      if (route.httpAuthStatus) expect(Object.keys(operation.responses)).toEqual(['200', '401', '403']);
    }
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['bearerToken', 'platformCookie']);
  });
});

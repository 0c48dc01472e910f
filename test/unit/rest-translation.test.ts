// Issue 31 (5): REST as a translation layer. The route factory's defaults for the common route shape, and the
// fragments each component's REST documents share: found by codegen and sent with every operation that spreads them.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Request } from 'express';
import { buildSchema, Kind, parse, validate, visit, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildSubgraphSchema } from '@apollo/subgraph';
import * as ops from '../../generated/graphql/masterdata.operations.js';
import { REST_ROUTES } from '../../gateway/components.js';
import { costRefusal, costWithValues, registeredOperations, supergraphListSizes } from '../../gateway/graphql-cost.js';
import { GRAPHQL_SETTINGS } from '../../lib/config.js';
import { componentSchemaDocument, graphqlFilesIn, sdlComponents } from '../../lib/subgraph.js';
import { MASTERDATA } from '../../rest-compat/masterdata/shared.js';
import { pathParam } from '../../rest-compat/route.js';
import { routeFactory } from '../../rest-compat/route-factory.js';
import { documentInput } from '../../subgraphs/masterdata/documents/inputs.js';

const root = new URL('../../', import.meta.url).pathname;
const route = routeFactory({ ...MASTERDATA, idPrefix: 'test.' });
const request = (params: Record<string, string> = {}) => ({ params }) as unknown as Request;
const keyShape = z.object({ code: z.string(), langCode: z.string() });

describe('the route factory: defaults for the common route shape', () => {
  it("passes the input as the operation's $input when that is its one variable, and answers the payload's result", () => {
    const made = route({
      method: 'post',
      path: '/documentcategories',
      summary: 'create',
      idSuffix: 'create',
      input: { from: 'envelope', schema: documentInput },
      operation: ops.DocumentsCreateCategoryDocument,
      response: keyShape,
    });
    const input = { code: 'DOC', langCode: 'eng', name: 'Proof', description: null, isActive: true };
    expect(made.variables(input, request(), [])).toEqual({ input });
    expect(made.result({ createDocumentCategory: { code: 'DOC', langCode: 'eng' } }, { res: {} as never })).toEqual({ code: 'DOC', langCode: 'eng' });
  });

  it('passes the input itself as the variables otherwise, and nothing for a route without input', () => {
    const byQuery = route({
      method: 'get',
      path: '/documentcategories',
      summary: 'list',
      idSuffix: 'list',
      input: { from: 'query', schema: z.object({ langCode: z.string().optional() }) },
      operation: ops.DocumentsCategoryListDocument,
      response: z.array(z.object({ code: z.string() })),
    });
    expect(byQuery.variables({ langCode: 'eng' }, request(), [])).toEqual({ langCode: 'eng' });
    const plain = route({
      method: 'get',
      path: '/documentcategorytypes',
      summary: 'all',
      idSuffix: 'all',
      operation: ops.DocumentsTypeListDocument,
      response: z.array(z.unknown()),
    });
    expect(plain.input).toEqual({ from: 'none' });
    expect(plain.variables({}, request(), [])).toEqual({});
    expect(plain.result({ documentTypeList: [] }, { res: {} as never })).toEqual([]);
  });

  it('keeps what a route declares over the defaults', () => {
    const own = route({
      method: 'delete',
      path: '/documentcategories/{code}',
      summary: 'delete',
      idSuffix: 'delete',
      operation: ops.DocumentsDeleteCategoryDocument,
      variables: (_input, req) => ({ code: pathParam(req, 'code') }),
      response: z.object({ code: z.string() }),
      result: (data) => ({ code: data.deleteDocumentCategory }),
    });
    expect(own.variables({}, request({ code: 'DOC' }), [])).toEqual({ code: 'DOC' });
    expect(own.result({ deleteDocumentCategory: 'DOC' }, { res: {} as never })).toEqual({ code: 'DOC' });
  });

  it('lets a route leave out only what its defaults fit (checked by the compiler)', () => {
    const spec = { method: 'post', path: '/x', summary: 'x', idSuffix: 'x' } as const;
    // @ts-expect-error the operation needs a code that a route without input does not give
    const withoutCode = route({ ...spec, operation: ops.DocumentsDeleteCategoryDocument, response: z.string() });
    // @ts-expect-error an input of other fields is not the operation's $input
    route({
      ...spec,
      input: { from: 'envelope', schema: z.object({ other: z.number() }) },
      operation: ops.DocumentsCreateCategoryDocument,
      response: keyShape,
    });
    // @ts-expect-error the payload's result is not the response the route documents
    route({
      ...spec,
      input: { from: 'envelope', schema: documentInput },
      operation: ops.DocumentsCreateCategoryDocument,
      response: z.object({ id: z.string() }),
    });
    // What the compiler refuses in the first: its default variables would give the operation no code.
    expect(withoutCode.variables({}, request(), [])).toEqual({});
  });
});

/** Every component's REST documents, as codegen reads them: the .graphql files of its folder as one. */
const documents = readdirSync(path.join(root, 'rest-compat'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((entry) => {
    const text = graphqlFilesIn(path.join(root, 'rest-compat', entry.name));
    return text ? [{ component: entry.name, document: parse(text) }] : [];
  });

const spreadsOf = (node: DocumentNode | OperationDefinitionNode) => {
  const names = new Set<string>();
  visit(node, { FragmentSpread: (spread) => void names.add(spread.name.value) });
  return names;
};

describe("the fragments a component's REST operations share", () => {
  const schema = buildSchema(readFileSync(path.join(root, 'schema/supergraph.graphql'), 'utf8'), { assumeValidSDL: true });

  it('are in one fragments.graphql per component, each spread by an operation, and none is defined twice', () => {
    for (const component of ['auth', 'idrepo', 'keys', 'license', 'masterdata', 'notify', 'otp', 'partner', 'regproc']) {
      const text = readFileSync(path.join(root, 'rest-compat', component, 'fragments.graphql'), 'utf8');
      const definitions = parse(text).definitions;
      expect(
        definitions.every((d) => d.kind === Kind.FRAGMENT_DEFINITION),
        component,
      ).toBe(true);
      expect(definitions.map((d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value)).toContain('UserErrors');
    }
    for (const { component, document } of documents) {
      const defined = document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [d.name.value] : []));
      expect(new Set(defined).size, component).toBe(defined.length);
      expect(
        defined.filter((name) => !spreadsOf(document).has(name)),
        component,
      ).toEqual([]);
    }
  });

  it('travel with every operation that spreads them: the text each route sends is a valid document of the subgraph it goes to', () => {
    // REST reaches the owning subgraph straight (gateway/rest-executor.ts), whose argument types it is written against.
    const subgraphs = sdlComponents().map((name) => buildSubgraphSchema({ typeDefs: componentSchemaDocument(name).document }));
    for (const { operation } of REST_ROUTES) {
      const sent = parse(operation.query);
      expect(
        subgraphs.some((subgraph) => validate(subgraph, sent).length === 0),
        operation.name,
      ).toBe(true);
      const defined = sent.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [d.name.value] : []));
      expect(new Set(defined), operation.name).toEqual(spreadsOf(sent));
    }
    expect(REST_ROUTES.filter(({ operation }) => operation.query.includes('...UserErrors')).length).toBeGreaterThan(80);
  });

  it('are weighed where spread: an operation over the cost limit as sent is a registered one, passed in-process', () => {
    const sizes = supergraphListSizes();
    const maxCost = Number(GRAPHQL_SETTINGS.maxCost.fallback);
    const registered = registeredOperations();
    const over: string[] = [];
    for (const { operation } of REST_ROUTES) {
      const document = parse(operation.query);
      const definition = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
      const values = Object.fromEntries((definition.variableDefinitions ?? []).map((v) => [v.variable.name.value, 100]));
      if (costWithValues(schema, sizes, document, definition, values) < maxCost) continue;
      over.push(operation.name);
      const costed = { schema, document, operation: definition, request: { query: operation.query, operationName: operation.name, variables: {} } };
      expect(costRefusal(maxCost, sizes, registered, costed), operation.name).toBeNull();
    }
    expect(over).toEqual(
      expect.arrayContaining(['CentresCentresOfLanguage', 'DevicesOfLanguage', 'PoliciesList', 'IdSchemaAll', 'DocumentsApplicantDocuments']),
    );
  });
});

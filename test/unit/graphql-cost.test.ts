// The GraphQL cost rule (issue 19): variables and defaults count as literals; portal screens pass, pages multiplied past their cap do not.
// Issue 30 (finding 9): a list without a page argument weighs its @listSize(assumedSize), so nested plain lists multiply.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { HeaderMap } from '@apollo/server';
import { buildSubgraphSchema } from '@apollo/subgraph';
import {
  buildSchema,
  getNamedType,
  getNullableType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  parse,
  type DocumentNode,
  type GraphQLField,
  type GraphQLInterfaceType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  validate,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { REST_ROUTES } from '../../gateway/components.js';
import {
  assumedListSizes,
  costRefusal,
  costWithValues,
  operationCost,
  PAGE_ARGUMENTS,
  registeredOperations,
  supergraphListSizes,
  type CostedRequest,
} from '../../gateway/graphql-cost.js';
import { GRAPHQL_SETTINGS } from '../../lib/config.js';
import { componentSchemaDocument } from '../../lib/subgraph.js';

const root = new URL('../../', import.meta.url).pathname;
const schema = buildSchema(readFileSync(path.join(root, 'schema/supergraph.graphql'), 'utf8'), { assumeValidSDL: true });
const sizes = supergraphListSizes();
const MAX_COST = Number(GRAPHQL_SETTINGS.maxCost.fallback);

const operationOf = (document: DocumentNode, name?: string) =>
  document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && (!name || d.name?.value === name))!;
/** A document of the supergraph: a misspelt field would cost nothing and prove nothing. */
const valid = (query: string) => {
  const document = parse(query);
  expect(validate(schema, document), query).toEqual([]);
  return document;
};
const cost = (query: string, variables: Record<string, unknown> = {}) => {
  const document = valid(query);
  return operationCost(schema, sizes, document, operationOf(document), variables);
};

/** The admin portal's users screen (test/rest/portal-screens-users.test.ts). */
const USERS_SCREEN = `query UsersScreen($first: Int, $after: String, $filter: UserFilter, $order: UserOrder, $lang: String) {
  users(first: $first, after: $after, filter: $filter, orderBy: $order) {
    totalCount
    pageInfo { hasNextPage hasPreviousPage endCursor }
    edges { cursor node { userId name roles zones(langCode: $lang) { code langCode name } registrationCentre(langCode: $lang) { id langCode name zoneCode } } }
  }
}`;

const CENTRE_SCREEN = `query Centres($centres: Int, $machines: Int, $users: Int) {
  registrationCentres(first: $centres) {
    totalCount pageInfo { hasNextPage endCursor }
    edges { cursor node {
      id langCode name centerTypeCode addressLine1 addressLine2 locationCode zoneCode isActive numberOfKiosks userCount
      workingHours timeZone workingDays { __typename } createdBy { userId name } createdAt
      machines(first: $machines) { totalCount edges { node { id name serialNum isActive } } }
      users(first: $users) { totalCount edges { node { __typename } } }
    } }
  }
}`;

describe('operationCost', () => {
  it('counts a page size passed as a variable as the same literal', () => {
    // 1,000 users, past the field's cap of 100: counted as asked, so the rule refuses it before the resolver sees it.
    const literal = cost('{ users(first: 1000) { edges { node { sessions(first: 100) { edges { node { id appId } } } } } } }');
    const variables = cost('query($a: Int, $b: Int) { users(first: $a) { edges { node { sessions(first: $b) { edges { node { id appId } } } } } } }', {
      a: 1000,
      b: 100,
    });
    const defaults = cost(
      'query($a: Int = 1000, $b: Int = 100) { users(first: $a) { edges { node { sessions(first: $b) { edges { node { id appId } } } } } } }',
    );
    expect(literal).toBeGreaterThan(MAX_COST);
    expect(variables).toBe(literal);
    expect(defaults).toBe(literal);
  });

  it('counts an absent page size as the default page (20)', () => {
    expect(cost('{ users { edges { node { userId } } } }')).toBe(cost('{ users(first: 20) { edges { node { userId } } } }'));
    expect(cost('query($n: Int) { users(first: $n) { edges { node { userId } } } }', {})).toBe(cost('{ users(first: 20) { edges { node { userId } } } }'));
  });

  it('counts a page read backward by its last, the absent first not at the default', () => {
    expect(cost('{ users(last: 5) { edges { node { userId } } } }')).toBe(cost('{ users(first: 5) { edges { node { userId } } } }'));
    expect(cost('{ users(last: 5) { edges { node { userId } } } }')!).toBeLessThan(cost('{ users { edges { node { userId } } } }')!);
    expect(cost('query($n: Int) { users(last: $n) { edges { node { userId } } } }', { n: 100 })).toBe(
      cost('{ users(first: 100) { edges { node { userId } } } }'),
    );
  });

  it('lets a portal screen of nested connections through up to their largest page (100), and refuses larger pages multiplied', () => {
    expect(cost(CENTRE_SCREEN, { centres: 20, machines: 20, users: 20 })).toBeLessThan(MAX_COST);
    expect(cost(CENTRE_SCREEN, { centres: 50, machines: 20, users: 20 })).toBeLessThan(MAX_COST);
    expect(cost(CENTRE_SCREEN, { centres: 100, machines: 100, users: 100 })).toBeLessThan(MAX_COST);
    expect(cost(CENTRE_SCREEN, { centres: 100, machines: 1000, users: 0 })).toBeGreaterThan(MAX_COST);
    expect(cost(CENTRE_SCREEN, { centres: 1000, machines: 20, users: 20 })).toBeGreaterThan(MAX_COST);
  });

  it('counts fragments at each spread, introspection and __typename at nothing', () => {
    const flat = cost('{ users(first: 10) { edges { node { userId name } } } }');
    expect(cost('{ users(first: 10) { edges { node { ...U } } } } fragment U on User { userId name }')).toBe(flat);
    expect(cost('{ users(first: 10) { edges { node { ...U ...U } } } } fragment U on User { userId name }')).toBe(
      cost('{ users(first: 10) { edges { node { userId name userId name } } } }'),
    );
    expect(cost('{ __schema { types { name fields { name } } } }')).toBe(0);
  });

  it('is null when the variables do not fit the operation (execution refuses them)', () => {
    expect(cost('query($n: Int!) { users(first: $n) { totalCount } }', {})).toBeNull();
    expect(cost('query($n: Int) { users(first: $n) { totalCount } }', { n: 'many' })).toBeNull();
  });
});

const registered = registeredOperations();
/** The rule as a plugin applies it: `http` is what Apollo attaches to every request from the network. */
const refusal = (query: string, options: { over?: GraphQLSchema; listSizes?: typeof sizes; inProcess?: boolean; name?: string } = {}) => {
  const document = valid(query);
  const operation = operationOf(document, options.name);
  const request: CostedRequest['request'] = { query, operationName: options.name, variables: {} };
  if (!options.inProcess) request.http = { method: 'POST', headers: new HeaderMap(), search: '', body: {} };
  return costRefusal(MAX_COST, options.listSizes ?? sizes, registered, { schema: options.over ?? schema, document, operation, request });
};

describe('plain lists (issue 30): weighed by their @listSize(assumedSize)', () => {
  const DEEP_CANDIDATES = `{ registrations(first: 100) { edges { node {
    candidates { candidates { candidates { candidates { registrationId } } } }
    manualVerifications { matchedRegId }
    abisRequests { requestId }
  } } } }`;

  it("reads every assumedSize of an SDL by Type.field, imported or under federation's prefix, extensions included", () => {
    const sdl = `type A {
      xs: [Int] @listSize(assumedSize: 7)
      ys: [Int] @federation__listSize(assumedSize: 3)
      zs(first: Int): [Int] @listSize(slicingArguments: ["first"])
      plain: [Int]
    }
    extend type A { ws: [A] @listSize(assumedSize: 2) }
    interface I { is: [Int] @listSize(assumedSize: 5) }`;
    expect(Object.fromEntries(assumedListSizes(sdl))).toEqual({ 'A.xs': 7, 'A.ys': 3, 'A.ws': 2, 'I.is': 5 });
    expect(sizes.get('Registration.candidates')).toBe(1600);
    expect(sizes.get('Query.allMisps')).toBe(1000);
  });

  it('counts a list without a page argument as its assumedSize rows, and multiplies through nesting', () => {
    const candidate = 1 + 0.25; // a Registration object and its registrationId
    expect(cost('{ registration(registrationId: "1") { candidates { registrationId } } }')).toBe(1 + 1600 * candidate);
    expect(cost('{ registration(registrationId: "1") { candidates { candidates { registrationId } } } }')).toBe(1 + 1600 * (1 + 1600 * candidate));
    // A scalar list too: an ABIS request's candidates (100 at most) of each of a registration's 1,000 requests.
    expect(cost('{ registration(registrationId: "1") { abisRequests { candidates } } }')).toBe(1 + 1000 * (1 + 100 * 0.25));
  });

  it('refuses registrations(first: 100) with candidates four deep, manual verifications and ABIS requests, with the cost error', () => {
    const error = refusal(DEEP_CANDIDATES);
    expect(error?.message).toMatch(/^Refused: Query Cost limit of 50000 exceeded, found \d+\.$/);
    expect(error?.extensions).toEqual({ code: 'GRAPHQL_VALIDATION_FAILED', http: { status: 400 } });
    // The rule before issue 30 counted each plain list as one row and let it through.
    expect(refusal(DEEP_CANDIDATES, { listSizes: new Map() })).toBeNull();
  });

  it('accepts a query within the limit, and refuses the same with one row more per level', () => {
    const page = (rows: number) => `{ registrations(first: ${rows}) { edges { node { registrationId candidates { registrationId } } } } }`;
    expect(cost(page(24))).toBe(1 + 24 * (1 + 0.25 + 1600 * 1.25)); // the connection, then each row
    expect(refusal(page(24))).toBeNull();
    expect(refusal(page(25))?.message).toMatch(/cost limit of 50000 exceeded, found 50033\./i);
    expect(refusal('{ registration(registrationId: "1") { registrationId candidates { registrationId } abisRequests { requestId status } } }')).toBeNull();
  });

  it('accepts a portal screen at the default: the users screen, each user with up to 1,000 zones', () => {
    const screen = valid(USERS_SCREEN);
    const weighed = (variables: Record<string, unknown>) => operationCost(schema, sizes, screen, operationOf(screen), variables)!;
    // Its zones are weighed at their cap, not as one: the screen passes by the budget, not by a plain list costing nothing.
    expect(weighed({})).toBe(weighed({ first: 20 }));
    expect(weighed({})).toBeGreaterThan(20 * 1000 * 1.75);
    expect(refusal(USERS_SCREEN, { name: 'UsersScreen' })).toBeNull();
    // The page test/rest/portal-screens-users.test.ts reads it at.
    expect(weighed({ first: 25 })).toBeLessThan(MAX_COST);
  });

  it('weighs allMisps as its 1,000 MISPs, each with its licenseKeys(first: 100), not as one', () => {
    const selection = '{ id licenseKeys(first: 100) { edges { node { licenseKey } } } }';
    const one = cost(`{ misp(mispId: "m") ${selection} }`)!;
    expect(cost(`{ allMisps ${selection} }`)).toBe(1000 * one);
    expect(one).toBeLessThan(MAX_COST);
    expect(refusal(`{ allMisps ${selection} }`)?.message).toMatch(/found 127250\./);
    expect(cost('{ allMisps { id } }')).toBe(1000 * 1.25);
  });

  it("counts a list sized by its own argument (the outbox's limit) by it; a page's lists by the page", () => {
    expect(cost('{ outbox(limit: 500) { id } }')).toBe(500 * 1.25);
    expect(cost('{ outbox { id } }')).toBe(20 * 1.25);
    // Its rows' own plain lists keep their own size (attachmentNames: 10), not the outbox's limit.
    expect(cost('{ outbox(limit: 40) { attachmentNames } }')).toBe(40 * (1 + 10 * 0.25));
    expect(cost('{ idSchemaPage(pageSize: 10) { data { id } } }')).toBe(1 + 10 * 1.25);
  });

  it('leaves no list of the supergraph at the default of one row: each has a page argument, a page around it, or an assumedSize', () => {
    const types = Object.values(schema.getTypeMap()).filter(
      (type): type is GraphQLObjectType | GraphQLInterfaceType =>
        (isObjectType(type) || isInterfaceType(type)) && !type.name.startsWith('_') && !type.name.includes('__'),
    );
    const fields = types.flatMap((type) => Object.values(type.getFields()).map((field) => ({ type, field })));
    const paged = (field: GraphQLField<unknown, unknown>) => field.args.some((argument) => PAGE_ARGUMENTS.has(argument.name));
    const unweighed: string[] = [];
    let lists = 0;
    for (const { type, field } of fields) {
      if (!isListType(getNullableType(field.type))) continue;
      lists++;
      // A list of a connection or a page is sized by the page argument of every field that returns its type.
      const parents = fields.filter((parent) => getNamedType(parent.field.type) === type).map((parent) => parent.field);
      const byPage = paged(field) || (parents.length > 0 && parents.every(paged));
      if (!byPage && !sizes.has(`${type.name}.${field.name}`)) unweighed.push(`${type.name}.${field.name}`);
    }
    expect(unweighed).toEqual([]);
    expect(lists).toBeGreaterThan(200);
  });
});

describe("the REST layer's operations", () => {
  /** Every variable at 100: only page arguments are read, so this is each operation at its largest page. */
  const atLargestPage = (document: DocumentNode, operation: OperationDefinitionNode) =>
    costWithValues(schema, sizes, document, operation, Object.fromEntries((operation.variableDefinitions ?? []).map((v) => [v.variable.name.value, 100])));

  it('each passes the rule: under the limit at its largest page, or a registered operation run in-process', () => {
    const dir = path.join(root, 'rest-compat');
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.graphql'));
    const routed = new Map(REST_ROUTES.map(({ operation }) => [operation.name, operation]));
    let operations = 0;
    const wholeLists: string[] = [];
    for (const file of files) {
      const document = parse(readFileSync(path.join(dir, file), 'utf8'));
      for (const operation of document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)) {
        operations++;
        const name = operation.name?.value ?? '';
        if (atLargestPage(document, operation) < MAX_COST) continue;
        wholeLists.push(name);
        // Over the limit by its declared sizes: it runs only as the REST layer sends it, the exact text a route registers.
        const sent = routed.get(name);
        expect(sent, `${file} ${name} is over the cost limit and no route registers it`).toBeDefined();
        expect(refusal(sent!.query, { name, inProcess: true }), name).toBeNull();
      }
    }
    expect(operations).toBeGreaterThan(50);
    expect(wholeLists).toEqual(expect.arrayContaining(['CentresCentresOfLanguage', 'DevicesOfLanguage', 'PoliciesList', 'IdSchemaAll']));
  });

  it('the same documents from the network, or altered in-process, are weighed like any other', () => {
    const policies = REST_ROUTES.find(({ operation }) => operation.name === 'PoliciesList')!.operation;
    expect(refusal(policies.query, { name: 'PoliciesList', inProcess: true })).toBeNull();
    expect(refusal(policies.query, { name: 'PoliciesList' })?.message).toMatch(/cost limit of 50000 exceeded/i);
    const altered = policies.query.replace('policyList {', 'allMisps { id } policyList {');
    expect(altered).not.toBe(policies.query);
    expect(refusal(altered, { name: 'PoliciesList', inProcess: true })?.message).toMatch(/cost limit of 50000 exceeded/i);
    expect(registered.has(`PoliciesList\0${policies.query}`)).toBe(true);
  });

  it("a subgraph's own server counts plain lists as one row: the gateway's fetches of REST operations reach it from the network", () => {
    const masterdata = buildSubgraphSchema({ typeDefs: componentSchemaDocument('masterdata').document });
    // DevicesOfLanguage's selection, as the gateway fetches it: 10,000 devices.
    const fetch = `{ devicesByLanguage(langCode: "eng") {
      id langCode name serialNum deviceSpecId macAddress ipAddress zoneCode regCenterId validityDateTime isActive isDeleted
      createdAt createdBy { userId } updatedAt updatedBy { userId } deletedAt
    } }`;
    expect(refusal(fetch)?.message).toMatch(/cost limit of 50000 exceeded, found 72500\./i);
    expect(refusal(fetch, { over: masterdata })).toBeNull();
    expect(refusal('{ devices(first: 100) { edges { node { id zones: id } } } }', { over: masterdata })).toBeNull();
  });
});

// The GraphQL cost rule (issue 19): variables and defaults count as literals; portal screens pass, multiplied 100-row lists do not.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, Kind, parse, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { costWithValues, operationCost } from '../../gateway/graphql-limits.js';
import { GRAPHQL_SETTINGS } from '../../lib/config.js';

const root = new URL('../../', import.meta.url).pathname;
const schema = buildSchema(readFileSync(path.join(root, 'schema/supergraph.graphql'), 'utf8'), { assumeValidSDL: true });
const MAX_COST = Number(GRAPHQL_SETTINGS.maxCost.fallback);

const operationOf = (document: ReturnType<typeof parse>) =>
  document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
const cost = (query: string, variables: Record<string, unknown> = {}) => {
  const document = parse(query);
  return operationCost(schema, document, operationOf(document), variables);
};

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
    const literal = cost('{ users(first: 100) { edges { node { sessions(first: 100) { edges { node { id appId } } } } } } }');
    const variables = cost('query($a: Int, $b: Int) { users(first: $a) { edges { node { sessions(first: $b) { edges { node { id appId } } } } } } }', {
      a: 100,
      b: 100,
    });
    const defaults = cost('query($a: Int = 100) { users(first: $a) { edges { node { sessions(first: $a) { edges { node { id appId } } } } } } }');
    expect(literal).toBeGreaterThan(MAX_COST);
    expect(variables).toBe(literal);
    expect(defaults).toBe(literal);
  });

  it('counts an absent page size as the default page (20)', () => {
    expect(cost('{ users { edges { node { userId } } } }')).toBe(cost('{ users(first: 20) { edges { node { userId } } } }'));
    expect(cost('query($n: Int) { users(first: $n) { edges { node { userId } } } }', {})).toBe(cost('{ users(first: 20) { edges { node { userId } } } }'));
  });

  it('lets a portal screen of nested 20–50 row connections through, and refuses multiplied 100-row connections', () => {
    expect(cost(CENTRE_SCREEN, { centres: 20, machines: 20, users: 20 })).toBeLessThan(MAX_COST);
    expect(cost(CENTRE_SCREEN, { centres: 50, machines: 20, users: 20 })).toBeLessThan(MAX_COST);
    expect(cost(CENTRE_SCREEN, { centres: 100, machines: 100, users: 0 })).toBeGreaterThan(MAX_COST);
    expect(cost(CENTRE_SCREEN, { centres: 100, machines: 0, users: 100 })).toBeGreaterThan(MAX_COST);
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

describe("the REST layer's operations", () => {
  it('all cost less than the default limit with every Int variable at the largest page (100)', () => {
    const dir = path.join(root, 'rest-compat');
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.graphql'));
    let operations = 0;
    for (const file of files) {
      const document = parse(readFileSync(path.join(dir, file), 'utf8'));
      for (const operation of document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)) {
        // Every variable at 100: only page arguments are read, so this is each operation at its largest page.
        const values = Object.fromEntries((operation.variableDefinitions ?? []).map((v) => [v.variable.name.value, 100]));
        expect(costWithValues(schema, document, operation, values), operation.name?.value).toBeLessThan(MAX_COST);
        operations++;
      }
    }
    expect(operations).toBeGreaterThan(50);
  });
});

import { parse, Kind, OperationTypeNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { ROLES } from '../../lib/roles.js';
import { componentTypeDefs } from '../../lib/subgraph.js';
import { COMPONENTS, REST_ROUTES, ROLE_TABLE } from '../../gateway/components.js';

/** "<Type>.<field>" of every object type field an SDL defines or extends. */
function objectFields(sdl: string): string[] {
  const fields: string[] = [];
  for (const definition of parse(sdl).definitions) {
    if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.OBJECT_TYPE_EXTENSION) continue;
    const node = definition;
    for (const field of node.fields ?? []) fields.push(`${node.name.value}.${field.name.value}`);
  }
  return fields;
}

const isRoot = (field: string) => field.startsWith('Query.') || field.startsWith('Mutation.');
const allRootFields = COMPONENTS.flatMap((component) => objectFields(componentTypeDefs(component.name)).filter(isRoot));

describe('the role table', () => {
  it('has a row for every GraphQL root field of every subgraph', () => {
    expect(allRootFields.filter((field) => !(field in ROLE_TABLE))).toEqual([]);
  });

  it("has no row for a field that does not exist: each component's rows name fields of its own SDL", () => {
    for (const component of COMPONENTS) {
      const fields = objectFields(componentTypeDefs(component.name));
      const types = new Set(fields.map((field) => field.split('.')[0]));
      const exists = (row: string) => fields.includes(row) || (row.endsWith('.__resolveReference') && types.has(row.split('.')[0]));
      expect(
        Object.keys(component.access).filter((row) => !exists(row)),
        component.name,
      ).toEqual([]);
    }
  });

  it('makes every field that a role table row gates on an entity nullable: a refusal nulls the field, never its parent', () => {
    const nonNull: string[] = [];
    for (const component of COMPONENTS)
      for (const definition of parse(componentTypeDefs(component.name)).definitions) {
        if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.OBJECT_TYPE_EXTENSION) continue;
        for (const field of definition.fields ?? []) {
          const row = `${definition.name.value}.${field.name.value}`;
          if (!isRoot(row) && ROLE_TABLE[row]?.kind === 'roles' && field.type.kind === Kind.NON_NULL_TYPE) nonNull.push(row);
        }
      }
    expect(nonNull).toEqual([]);
  });

  it('names only known roles', () => {
    for (const access of Object.values(ROLE_TABLE)) {
      if (access.kind === 'roles') for (const role of access.roles) expect(ROLES).toContain(role);
    }
  });

  it('covers every REST route: each route runs an operation whose root fields all have a row', () => {
    for (const route of REST_ROUTES) {
      const document = parse(route.operation.query);
      const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION && d.name?.value === route.operation.name);
      expect(operation, `${route.path} runs ${route.operation.name}`).toBeDefined();
      if (operation?.kind !== Kind.OPERATION_DEFINITION) continue;
      const type = operation.operation === OperationTypeNode.MUTATION ? 'Mutation' : 'Query';
      for (const selection of operation.selectionSet.selections) {
        if (selection.kind === Kind.FIELD) expect(ROLE_TABLE, route.path).toHaveProperty([`${type}.${selection.name.value}`]);
      }
    }
  });
});

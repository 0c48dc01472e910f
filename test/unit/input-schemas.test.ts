import { Kind, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { componentTypeDefs } from '../../lib/subgraph.js';
import { COMPONENTS } from '../../gateway/components.js';

/** The root fields (Query, Mutation) of a component's SDL that take arguments. */
function rootFieldsWithArguments(sdl: string): string[] {
  const fields: string[] = [];
  for (const definition of parse(sdl).definitions) {
    if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.OBJECT_TYPE_EXTENSION) continue;
    if (definition.name.value !== 'Query' && definition.name.value !== 'Mutation') continue;
    for (const field of definition.fields ?? []) if (field.arguments?.length) fields.push(field.name.value);
  }
  return fields;
}

describe('input schemas', () => {
  it('every root field with arguments has a zod schema in its component (GraphQL and REST check the same rules)', () => {
    const missing = COMPONENTS.flatMap((component) =>
      rootFieldsWithArguments(componentTypeDefs(component.name))
        .filter((field) => !component.inputs?.schemas[field])
        .map((field) => `${component.name}: ${field}`),
    );
    expect(missing).toEqual([]);
  });

  it('declares no schema for a field that does not exist', () => {
    for (const component of COMPONENTS) {
      const sdl = parse(componentTypeDefs(component.name));
      const rootFields = new Set(
        sdl.definitions.flatMap((definition) =>
          (definition.kind === Kind.OBJECT_TYPE_DEFINITION || definition.kind === Kind.OBJECT_TYPE_EXTENSION) &&
          (definition.name.value === 'Query' || definition.name.value === 'Mutation')
            ? (definition.fields ?? []).map((field) => field.name.value)
            : [],
        ),
      );
      expect(
        Object.keys(component.inputs?.schemas ?? {}).filter((field) => !rootFields.has(field)),
        component.name,
      ).toEqual([]);
    }
  });
});

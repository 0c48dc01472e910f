// Which list fields of an SDL declare no bound (test/unit/graph-bounded-lists.test.ts; run it on one
// subgraph while annotating). A bound is federation's @listSize (federation v2.9, the cost spec):
//   - a list field: `@listSize(assumedSize: N)`, or `slicingArguments` naming Int arguments that size it;
//   - a connection field (a type whose `edges` is a list): sliced by `first` with `edges` its sized field,
//     `@listSize(slicingArguments: ["first"], sizedFields: ["edges"], requireOneSlicingArgument: false)`;
//   - a list inside a returned object (a connection's `edges`, a page's `data`): bounded when every field
//     returning that object names it in `sizedFields`.
import { Kind, parse, type ConstDirectiveNode, type FieldDefinitionNode, type TypeNode } from 'graphql';

/** What a field's @listSize says. */
export interface ListSize {
  assumedSize?: number;
  slicingArguments: string[];
  sizedFields: string[];
}

const CONTAINERS = new Set<string>([Kind.OBJECT_TYPE_DEFINITION, Kind.OBJECT_TYPE_EXTENSION, Kind.INTERFACE_TYPE_DEFINITION, Kind.INTERFACE_TYPE_EXTENSION]);
/** Federation's own types (_Service, _Entity, join__*, link__*). */
const isFederations = (name: string) => name.startsWith('_') || name.includes('__');

const isList = (type: TypeNode): boolean => (type.kind === Kind.NON_NULL_TYPE ? isList(type.type) : type.kind === Kind.LIST_TYPE);
const namedOf = (type: TypeNode): string => (type.kind === Kind.NAMED_TYPE ? type.name.value : namedOf(type.type));
const strings = (directive: ConstDirectiveNode, name: string): string[] => {
  const value = directive.arguments?.find((argument) => argument.name.value === name)?.value;
  return value?.kind === Kind.LIST ? value.values.flatMap((item) => (item.kind === Kind.STRING ? [item.value] : [])) : [];
};

/** A field's @listSize (imported, or under federation's prefix), if it has one. */
export function listSizeOf(field: FieldDefinitionNode): ListSize | undefined {
  const directive = field.directives?.find((d) => d.name.value === 'listSize' || d.name.value.endsWith('__listSize'));
  if (!directive) return undefined;
  const assumed = directive.arguments?.find((argument) => argument.name.value === 'assumedSize')?.value;
  return {
    ...(assumed?.kind === Kind.INT ? { assumedSize: Number(assumed.value) } : {}),
    slicingArguments: strings(directive, 'slicingArguments'),
    sizedFields: strings(directive, 'sizedFields'),
  };
}

/** Every output field of the SDL by type, definitions and extensions merged. */
export function outputFields(sdl: string): Map<string, Map<string, FieldDefinitionNode>> {
  const types = new Map<string, Map<string, FieldDefinitionNode>>();
  for (const definition of parse(sdl).definitions) {
    if (!CONTAINERS.has(definition.kind) || !('fields' in definition) || !('name' in definition) || !definition.name) continue;
    const name = definition.name.value;
    if (isFederations(name)) continue;
    const fields = types.get(name) ?? new Map<string, FieldDefinitionNode>();
    for (const field of (definition.fields ?? []) as readonly FieldDefinitionNode[]) fields.set(field.name.value, field);
    types.set(name, fields);
  }
  return types;
}

/**
 * The coordinates (`Type.field`, with what is wrong) of the list fields an SDL leaves unbounded, and of
 * the bounds it declares wrongly: an assumed size that is negative or above `maxAssumedSize`, a slicing
 * argument that is not an Int argument of the field, a sized field that is not a list.
 */
export function unboundedLists(sdl: string, maxAssumedSize = Number.POSITIVE_INFINITY): string[] {
  const types = outputFields(sdl);
  const problems: string[] = [];
  const returning = (typeName: string) => [...types.values()].flatMap((fields) => [...fields.values()].filter((field) => namedOf(field.type) === typeName));
  const coordinateOf = (field: FieldDefinitionNode) =>
    `${[...types].find(([, fields]) => [...fields.values()].includes(field))?.[0] ?? '?'}.${field.name.value}`;

  for (const [typeName, fields] of types) {
    for (const field of fields.values()) {
      const coordinate = `${typeName}.${field.name.value}`;
      const bound = listSizeOf(field);
      const target = types.get(namedOf(field.type));
      if (bound) {
        const { assumedSize, slicingArguments, sizedFields } = bound;
        if (assumedSize !== undefined && (assumedSize < 0 || assumedSize > maxAssumedSize))
          problems.push(`${coordinate}: assumedSize ${assumedSize} is not between 0 and ${maxAssumedSize}`);
        for (const name of slicingArguments) {
          const argument = field.arguments?.find((a) => a.name.value === name);
          if (!argument || namedOf(argument.type) !== 'Int' || isList(argument.type))
            problems.push(`${coordinate}: slicing argument ${name} is not an Int argument`);
        }
        for (const name of sizedFields) {
          const sized = target?.get(name);
          if (!sized || !isList(sized.type)) problems.push(`${coordinate}: sized field ${name} is not a list of ${namedOf(field.type)}`);
        }
      }
      const sizes = bound !== undefined && (bound.assumedSize !== undefined || bound.slicingArguments.length > 0);
      // A connection is sliced by `first` (firstOf refuses more than MAX_PAGE), which sizes its edges.
      const edges = target?.get('edges');
      if (namedOf(field.type).endsWith('Connection') && edges && isList(edges.type)) {
        const first = field.arguments?.find((a) => a.name.value === 'first');
        if (!first || !bound?.slicingArguments.includes('first') || !bound.sizedFields.includes('edges'))
          problems.push(
            `${coordinate}: a connection, sliced by first: @listSize(slicingArguments: ["first"], sizedFields: ["edges"], requireOneSlicingArgument: false)`,
          );
      }
      if (!isList(field.type) || sizes) continue;
      // A list with no bound of its own: every field returning its type must size it.
      const parents = returning(typeName);
      const unsized = parents.filter((parent) => {
        const size = listSizeOf(parent);
        return !size || !size.sizedFields.includes(field.name.value) || (size.assumedSize === undefined && !size.slicingArguments.length);
      });
      if (!parents.length) problems.push(`${coordinate}: a list with no bound (@listSize(assumedSize: N), or sized by the fields returning ${typeName})`);
      else if (unsized.length) problems.push(`${coordinate}: a list with no bound, not sized by ${unsized.map(coordinateOf).join(', ')}`);
    }
  }
  return problems;
}

import { Kind, type ConstArgumentNode, type ConstDirectiveNode, type DocumentNode, type FieldDefinitionNode, type InputValueDefinitionNode } from 'graphql';
import { namedTypeOf } from './type-nodes.js';

/**
 * Backward paging on every list of the portal graph (Relay's `last` and
 * `before`): each field answering a `…Connection` that takes `first` also
 * takes `last` and `before`, and its declared cost counts `last` as a page
 * size. One rule over the plain SDL, as the mutation convention is
 * (lib/graph/payloads.ts), so no list can miss it; lib/graph/connection.ts
 * reads the page backward.
 */
export function withBackwardPaging(document: DocumentNode): DocumentNode {
  return {
    ...document,
    definitions: document.definitions.map((definition) => {
      if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.OBJECT_TYPE_EXTENSION) return definition;
      if (!definition.fields?.some(pagesForward)) return definition;
      return { ...definition, fields: definition.fields.map((field) => (pagesForward(field) ? backward(field) : field)) };
    }),
  };
}

const pagesForward = (field: FieldDefinitionNode): boolean =>
  namedTypeOf(field.type).endsWith('Connection') && !!field.arguments?.some((arg) => arg.name.value === 'first');

const argument = (name: string, type: string, description: string): InputValueDefinitionNode => ({
  kind: Kind.INPUT_VALUE_DEFINITION,
  name: { kind: Kind.NAME, value: name },
  type: { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: type } },
  description: { kind: Kind.STRING, value: description, block: false },
});

function backward(field: FieldDefinitionNode): FieldDefinitionNode {
  const names = new Set(field.arguments?.map((arg) => arg.name.value));
  const added = [
    ...(names.has('last')
      ? []
      : [argument('last', 'Int', 'at most this many from the end of the list, or before `before` (default 20, at most 100); not with `first` or `after`')]),
    ...(names.has('before') ? [] : [argument('before', 'String', 'the cursor before which the page ends (the `startCursor` of the page after it)')]),
  ];
  return { ...field, arguments: [...(field.arguments ?? []), ...added], directives: field.directives?.map(slicedByLast) };
}

/** @listSize(slicingArguments: ["first"]) counts `last` too. */
function slicedByLast(directive: ConstDirectiveNode): ConstDirectiveNode {
  if (directive.name.value !== 'listSize') return directive;
  const args = directive.arguments?.map((arg): ConstArgumentNode => {
    if (arg.name.value !== 'slicingArguments' || arg.value.kind !== Kind.LIST) return arg;
    const values = arg.value.values;
    if (values.some((value) => value.kind === Kind.STRING && value.value === 'last')) return arg;
    return { ...arg, value: { ...arg.value, values: [...values, { kind: Kind.STRING, value: 'last' }] } };
  });
  return { ...directive, arguments: args };
}

import {
  Kind,
  type ConstDirectiveNode,
  type DefinitionNode,
  type DocumentNode,
  type FieldDefinitionNode,
  type NamedTypeNode,
  type StringValueNode,
  type TypeNode,
} from 'graphql';

/**
 * The mutation convention of the portal graph (as GitHub's and Shopify's):
 * a mutation takes one `input` and answers a `<Name>Payload` holding its
 * result and `userErrors { field code message }`, every reason the request
 * was refused. Components declare mutations plainly (arguments, the type of
 * the result), which is what their resolvers receive and return; this one
 * rule turns each into the convention, so no mutation can miss it and
 * resolvers stay free of it. The subgraph's guard (lib/subgraph.ts) fills the
 * payload, and the REST operation layer reads it back.
 */
export interface PayloadShape {
  /** the payload's field that holds the mutation's result */
  resultField: string;
  /** whether the plain arguments were gathered into a generated `input` (the resolver receives them spread) */
  gathered: boolean;
}

/** The type every payload lists refusals with; each subgraph that has mutations declares it, identically (@shareable). */
export const USER_ERROR_TYPE = 'UserError';

/** The most user errors a payload lists (lib/graph/inputs.ts stops there): a bound the schema declares. */
export const MAX_USER_ERRORS = 100;
/** The longest path of a user error: the deepest input a request may nest (lib/input.ts MAX_JSON_DEPTH). */
const MAX_FIELD_PATH = 64;

const capitalized = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
const uncapitalized = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);
const plural = (name: string) => (/(s|x|ch|sh)$/.test(name) ? `${name}es` : /[^aeiou]y$/.test(name) ? `${name.slice(0, -1)}ies` : `${name}s`);
const SCALARS = new Set(['ID', 'String', 'Int', 'Float', 'Boolean', 'JSON', 'DateTime', 'Date']);

const namedType = (name: string): NamedTypeNode => ({ kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: name } });
const nonNull = (type: NamedTypeNode | { kind: Kind.LIST_TYPE; type: TypeNode }): TypeNode => ({ kind: Kind.NON_NULL_TYPE, type });
const nullable = (type: TypeNode): TypeNode => (type.kind === Kind.NON_NULL_TYPE ? type.type : type);
const description = (value: string): StringValueNode => ({ kind: Kind.STRING, value, block: false });

function baseTypeName(type: TypeNode): { name: string; list: boolean } {
  const inner = nullable(type);
  if (inner.kind === Kind.LIST_TYPE) return { name: baseTypeName(inner.type).name, list: true };
  return { name: (inner as NamedTypeNode).name.value, list: false };
}

/** The name of the payload field holding a result of this type: `user`, `authTypeStatuses`; `result` for a scalar. */
export function resultFieldName(type: TypeNode): string {
  const { name, list } = baseTypeName(type);
  if (SCALARS.has(name)) return 'result';
  return list ? plural(uncapitalized(name)) : uncapitalized(name);
}

const field = (name: string, type: TypeNode, text: string, directives: readonly ConstDirectiveNode[] = []): FieldDefinitionNode => ({
  kind: Kind.FIELD_DEFINITION,
  name: { kind: Kind.NAME, value: name },
  type,
  arguments: [],
  description: description(text),
  directives,
});

/** Federation's declared bound of a list (the cost spec's @listSize), which the SDL must import. */
const assumedSize = (size: number): ConstDirectiveNode => ({
  kind: Kind.DIRECTIVE,
  name: { kind: Kind.NAME, value: 'listSize' },
  arguments: [{ kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: 'assumedSize' }, value: { kind: Kind.INT, value: String(size) } }],
});
const isListSize = (directive: ConstDirectiveNode) => directive.name.value === 'listSize';

const userErrorType = (shareable: ConstDirectiveNode): DefinitionNode => ({
  kind: Kind.OBJECT_TYPE_DEFINITION,
  name: { kind: Kind.NAME, value: USER_ERROR_TYPE },
  description: description('A reason a mutation refused its input: the same code and message its REST path answers with.'),
  directives: [shareable],
  fields: [
    field(
      'field',
      { kind: Kind.LIST_TYPE, type: nonNull(namedType('String')) },
      'the path of the input field at fault (["input", "name"]); null when the refusal is not about one field',
      [assumedSize(MAX_FIELD_PATH)],
    ),
    field('code', nonNull(namedType('String')), "the platform's error code (the spec's code of the REST path)"),
    field('message', nonNull(namedType('String')), 'what is wrong, for a person'),
  ],
});

/**
 * A component's SDL with every mutation in the convention, and how each
 * mutation's payload is filled. A mutation without arguments keeps none; one
 * whose only argument is already `input` keeps it; any other gets a
 * generated `<Name>Input` of its arguments.
 */
export function withPayloads(document: DocumentNode): { document: DocumentNode; shapes: ReadonlyMap<string, PayloadShape> } {
  const shapes = new Map<string, PayloadShape>();
  const added: DefinitionNode[] = [];
  const taken = new Set(document.definitions.flatMap((definition) => ('name' in definition && definition.name ? [definition.name.value] : [])));
  const claim = (name: string) => {
    if (taken.has(name)) throw new Error(`the mutation convention needs the type name ${name}, which the SDL already uses`);
    taken.add(name);
    return name;
  };
  const definitions = document.definitions.map((definition): DefinitionNode => {
    if ((definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.OBJECT_TYPE_EXTENSION) || definition.name.value !== 'Mutation')
      return definition;
    const fields = (definition.fields ?? []).map((mutation): FieldDefinitionNode => {
      const name = mutation.name.value;
      const args = mutation.arguments ?? [];
      const keepsInput = args.length === 1 && args[0]!.name.value === 'input';
      const gathered = args.length > 0 && !keepsInput;
      let inputArgs = [...args];
      if (gathered) {
        const inputName = claim(`${capitalized(name)}Input`);
        added.push({
          kind: Kind.INPUT_OBJECT_TYPE_DEFINITION,
          name: { kind: Kind.NAME, value: inputName },
          description: description(`The arguments of \`${name}\`.`),
          fields: args,
        });
        const required = args.some((arg) => arg.type.kind === Kind.NON_NULL_TYPE && !arg.defaultValue);
        inputArgs = [
          {
            kind: Kind.INPUT_VALUE_DEFINITION,
            name: { kind: Kind.NAME, value: 'input' },
            description: description(`the arguments of \`${name}\``),
            type: required ? nonNull(namedType(inputName)) : namedType(inputName),
          },
        ];
      }
      const resultField = resultFieldName(mutation.type);
      const payloadName = claim(`${capitalized(name)}Payload`);
      added.push({
        kind: Kind.OBJECT_TYPE_DEFINITION,
        name: { kind: Kind.NAME, value: payloadName },
        description: description(`What \`${name}\` answers: its result, or every reason it refused the input in \`userErrors\`.`),
        fields: [
          // A list result keeps the bound its mutation declares.
          field(resultField, nullable(mutation.type), `the result; null when \`userErrors\` is not empty`, (mutation.directives ?? []).filter(isListSize)),
          field(
            'userErrors',
            nonNull({ kind: Kind.LIST_TYPE, type: nonNull(namedType(USER_ERROR_TYPE)) }),
            `every reason the input was refused (each invalid field once, in the order of the input, at most ${MAX_USER_ERRORS}); empty on success`,
            [assumedSize(MAX_USER_ERRORS)],
          ),
        ],
      });
      shapes.set(name, { resultField, gathered });
      const directives = (mutation.directives ?? []).filter((directive) => !isListSize(directive));
      return { ...mutation, arguments: inputArgs, type: nonNull(namedType(payloadName)), directives };
    });
    return { ...definition, fields };
  });
  if (shapes.size) {
    claim(USER_ERROR_TYPE);
    const shareable: ConstDirectiveNode = { kind: Kind.DIRECTIVE, name: { kind: Kind.NAME, value: 'shareable' }, arguments: [] };
    added.push(userErrorType(shareable));
  }
  return { document: { ...document, definitions: [...definitions, ...added] }, shapes };
}

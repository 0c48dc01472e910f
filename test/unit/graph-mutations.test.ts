// The mutation convention of the portal graph, over the composed supergraph that clients see:
// one `input` (or none), a `<Name>Payload` with the result and `userErrors { field code message }`.
import { readFileSync } from 'node:fs';
import { buildSchema, getNamedType, getNullableType, isListType, isNonNullType, isObjectType, parse, print, type GraphQLSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { SUPERGRAPH_FILE } from '../../gateway/compose.js';
import { withPayloads } from '../../lib/graph/payloads.js';

/** Every mutation that breaks the convention, with why. */
function offences(schema: GraphQLSchema): string[] {
  const found: string[] = [];
  for (const mutation of Object.values(schema.getMutationType()?.getFields() ?? {})) {
    const name = mutation.name;
    if (mutation.args.length > 1 || (mutation.args.length === 1 && mutation.args[0]!.name !== 'input')) found.push(`${name}: arguments other than one input`);
    const payload = getNullableType(mutation.type);
    const expected = `${name.charAt(0).toUpperCase()}${name.slice(1)}Payload`;
    if (!isNonNullType(mutation.type) || !isObjectType(payload) || payload.name !== expected) {
      found.push(`${name}: answers ${String(mutation.type)}, not ${expected}!`);
      continue;
    }
    const fields = Object.values(payload.getFields());
    const userErrors = payload.getFields().userErrors;
    if (!userErrors || String(userErrors.type) !== '[UserError!]!') found.push(`${name}: no userErrors: [UserError!]!`);
    const results = fields.filter((field) => field.name !== 'userErrors');
    if (results.length !== 1 || isNonNullType(results[0]!.type)) found.push(`${name}: a payload holds one nullable result`);
  }
  const userError = schema.getType('UserError');
  if (!isObjectType(userError)) return [...found, 'no UserError type'];
  const shape = Object.values(userError.getFields()).map((field) => `${field.name}: ${String(field.type)}`);
  if (shape.join(', ') !== 'field: [String!], code: String!, message: String!') found.push(`UserError is ${shape.join(', ')}`);
  return found;
}

const supergraph = () => buildSchema(readFileSync(SUPERGRAPH_FILE, 'utf8'), { assumeValidSDL: true });

describe('mutation convention', () => {
  it('every mutation of the supergraph takes one input (or nothing) and answers its payload with userErrors', () => {
    const schema = supergraph();
    expect(Object.keys(schema.getMutationType()!.getFields()).length).toBeGreaterThan(100);
    expect(offences(schema)).toEqual([]);
  });

  it('the check fails on a plain mutation', () => {
    const plain = buildSchema(
      'type Query { a: Int } type Mutation { rename(id: ID!, name: String!): String } type UserError { field: [String!] code: String! message: String! }',
    );
    expect(offences(plain)).toEqual(['rename: arguments other than one input', 'rename: answers String, not RenamePayload!']);
  });

  it('gathers plain arguments into a generated input, keeps an input and no arguments as they are, and names the result by its type', () => {
    const { document, shapes } = withPayloads(
      parse(`
        type Query { a: Int }
        type Thing { id: ID! }
        input ThingInput { id: ID! }
        type Mutation {
          "renames a thing"
          rename("the thing" id: ID!, "its new name" name: String): Thing!
          create(input: ThingInput!): Thing!
          forgetAll: [Thing!]!
          count(id: ID): Int!
        }`),
    );
    expect(Object.fromEntries(shapes)).toEqual({
      rename: { resultField: 'thing', gathered: true },
      create: { resultField: 'thing', gathered: false },
      forgetAll: { resultField: 'things', gathered: false },
      count: { resultField: 'result', gathered: true },
    });
    const schema = buildSchema(
      `directive @shareable on OBJECT | FIELD_DEFINITION\ndirective @listSize(assumedSize: Int) on FIELD_DEFINITION\n${print(document)}`,
    );
    expect(offences(schema)).toEqual([]);
    const renameInput = schema.getType('RenameInput');
    expect(renameInput && 'getFields' in renameInput && Object.keys(renameInput.getFields())).toEqual(['id', 'name']);
    expect(String(schema.getMutationType()!.getFields().rename!.args[0]!.type)).toBe('RenameInput!');
    expect(String(schema.getMutationType()!.getFields().count!.args[0]!.type)).toBe('CountInput');
    expect(String(schema.getMutationType()!.getFields().forgetAll!.args.length)).toBe('0');
    const payload = schema.getType('ForgetAllPayload');
    expect(isObjectType(payload) && isListType(getNullableType(payload.getFields().things!.type))).toBe(true);
    expect(isObjectType(payload) && getNamedType(payload.getFields().things!.type).name).toBe('Thing');
  });

  it('refuses to take a type name the SDL already uses', () => {
    expect(() => withPayloads(parse('type Query { a: Int } type RenamePayload { a: Int } type Mutation { rename(id: ID!): Int }'))).toThrow(/RenamePayload/);
  });
});

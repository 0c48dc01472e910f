// An entity several subgraphs declare reads, in the supergraph, as its owner describes it.
import { readFileSync } from 'node:fs';
import { buildSchema, isObjectType, parse, print } from 'graphql';
import { describe, expect, it } from 'vitest';
import { SUPERGRAPH_FILE } from '../../gateway/compose.js';
import { withOwnersDescriptions } from '../../lib/graph/shared-descriptions.js';

const sdl = (text: string) => parse(text);

describe('shared entity descriptions', () => {
  it("gives every declaration the owner's text (the one with most fields), for the type and its shared fields", () => {
    const [owner, stub, alone] = withOwnersDescriptions([
      { name: 'auth', document: sdl('"A person who logs in" type User { "the login id" userId: ID! "the name" name: String "locked out" isLocked: Boolean }') },
      { name: 'keys', document: sdl('"a reference" type User { "the id" userId: ID! "keys of it" keys: [String] }  "a key" type Key { id: ID! }') },
      { name: 'other', document: sdl('"alone here" type Thing { id: ID! }') },
    ]);
    expect(print(stub!.document)).toContain('"A person who logs in"\ntype User {\n  "the login id"\n  userId: ID!\n  "keys of it"\n  keys: [String]\n}');
    expect(print(stub!.document)).toContain('"a key"\ntype Key');
    expect(print(owner!.document)).toContain('"A person who logs in"');
    expect(print(alone!.document)).toContain('"alone here"');
  });

  it('leaves a tie as it is: no owner to prefer', () => {
    const services = [
      { name: 'a', document: sdl('"as a has it" type Pair { id: ID! }') },
      { name: 'b', document: sdl('"as b has it" type Pair { id: ID! }') },
    ];
    expect(withOwnersDescriptions(services).map(({ document }) => print(document))).toEqual(services.map(({ document }) => print(document)));
  });

  it('describes the shared entities of the composed supergraph as their owners do', () => {
    const supergraph = buildSchema(readFileSync(SUPERGRAPH_FILE, 'utf8'), { assumeValidSDL: true });
    const describe = (type: string, field?: string) => {
      const named = supergraph.getType(type);
      if (!isObjectType(named)) throw new Error(`${type} is not an object type`);
      return field ? named.getFields()[field]?.description : named.description;
    };
    expect(describe('User')).toMatch(/^A person who logs in/);
    expect(describe('User', 'userId')).toMatch(/the user id the user logs in with/);
    expect(describe('Registration')).toMatch(/^A registration the processor knows/);
    expect(describe('Partner')).toMatch(/^An Auth\/E-KYC partner/);
  });
});

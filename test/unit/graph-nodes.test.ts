// Global object identification over the composed graph: every entity a client can refetch is a Node,
// and the rule its node door applies is a row of its own component's table, the same wherever declared.
import { readFileSync } from 'node:fs';
import { buildSchema, isObjectType, Kind } from 'graphql';
import { describe, expect, it } from 'vitest';
import { NODE_SUBGRAPH_FILE, nodeSubgraphSdl, SUPERGRAPH_FILE } from '../../gateway/compose.js';
import { componentNamed, REGISTRY } from '../../gateway/components.js';
import { decodeNodeId, encodeNodeId } from '../../lib/graph/nodes.js';
import { declaredNodes } from '../../lib/subgraph.js';

const supergraph = () => buildSchema(readFileSync(SUPERGRAPH_FILE, 'utf8'), { assumeValidSDL: true });

/** Object types some subgraph resolves by a key (not a stub of another's). */
function resolvableEntities(): string[] {
  return Object.values(supergraph().getTypeMap())
    .filter(isObjectType)
    .filter((type) =>
      (type.astNode?.directives ?? []).some(
        (directive) =>
          directive.name.value === 'join__type' &&
          directive.arguments?.some((arg) => arg.name.value === 'key') &&
          !directive.arguments?.some((arg) => arg.name.value === 'resolvable' && arg.value.kind === Kind.BOOLEAN && !arg.value.value) &&
          !directive.arguments?.some((arg) => arg.name.value === 'graph' && arg.value.kind === Kind.ENUM && arg.value.value === 'NODE'),
      ),
    )
    .map((type) => type.name)
    .sort();
}

describe('Node', () => {
  it('schema/node.graphql is what `npm run compose` makes of the @node marks', () => {
    expect(readFileSync(NODE_SUBGRAPH_FILE, 'utf8')).toBe(nodeSubgraphSdl());
  });

  it('is implemented by every entity a subgraph resolves by its key, but the caller itself (Viewer)', () => {
    const schema = supergraph();
    const node = schema.getType('Node');
    const implementing = Object.values(schema.getTypeMap())
      .filter(isObjectType)
      .filter((type) => type.getInterfaces().some((face) => face === node))
      .map((type) => type.name)
      .sort();
    expect(implementing.length).toBeGreaterThanOrEqual(30);
    expect(resolvableEntities().filter((type) => !implementing.includes(type))).toEqual(['Viewer']);
    for (const type of implementing)
      expect(String((schema.getType(type) as { getFields(): Record<string, { type: unknown }> }).getFields().nodeId?.type)).toBe('ID!');
  });

  it("holds each node door to a row of its owner's table, declared the same by every component that declares it", () => {
    const declared = [...declaredNodes().values()];
    const mismatched: string[] = [];
    for (const { type, home, access } of declared) {
      const own = componentNamed(home)?.access[access];
      if (!own) mismatched.push(`${type}: ${home} has no row ${access}`);
      for (const { component } of REGISTRY) {
        const theirs = (component.access as Record<string, unknown>)[access];
        if (theirs && JSON.stringify(theirs) !== JSON.stringify(own)) mismatched.push(`${type}: ${component.name} declares ${access} otherwise`);
      }
    }
    expect(mismatched).toEqual([]);
  });

  it('reads back only the ids it makes', () => {
    const declarations = declaredNodes();
    const id = encodeNodeId('RegistrationCentre', ['10001', 'eng']);
    expect(decodeNodeId(id, declarations)).toMatchObject({ declaration: { type: 'RegistrationCentre', home: 'masterdata' }, values: ['10001', 'eng'] });
    expect(decodeNodeId(encodeNodeId('Holiday', [7, 'eng']), declarations)?.values).toEqual([7, 'eng']);
    for (const forged of [
      encodeNodeId('Holiday', ['7', 'eng']),
      encodeNodeId('Holiday', [7.5, 'eng']),
      encodeNodeId('RegistrationCentre', ['10001']),
      encodeNodeId('Viewer', ['me']),
      encodeNodeId('RegistrationCentre', [{ id: '1' }, 'eng']),
      Buffer.from('RegistrationCentre:["1","eng"').toString('base64url'),
      `${id}=`,
      '',
    ])
      expect(decodeNodeId(forged, declarations), forged).toBeUndefined();
  });
});

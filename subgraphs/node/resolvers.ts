import type { NodeDeclaration } from '../../lib/graph/nodes.js';
import type { ComponentResolvers } from '../component.js';
import type { NodeLookup } from './service.js';

type Reference = Record<string, unknown> & { __typename?: string };

/** `node`/`nodes`, and each declared entity's stub: its reference is its key, its `nodeId` made from it. */
export function nodeResolvers(lookup: NodeLookup, declarations: ReadonlyMap<string, NodeDeclaration>): ComponentResolvers {
  const stubs = Object.fromEntries(
    [...declarations.keys()].map((type) => [
      type,
      { __resolveReference: (reference: Reference) => reference, nodeId: (reference: Reference) => lookup.idOf(type, reference) },
    ]),
  );
  return {
    Query: {
      node: (_: unknown, args: { id: string }, context: Parameters<NodeLookup['reference']>[0]) => lookup.reference(context, args.id),
      nodes: (_: unknown, args: { ids: string[] }, context: Parameters<NodeLookup['reference']>[0]) => lookup.references(context, args.ids),
    },
    Node: { __resolveType: (reference: Reference) => reference.__typename },
    ...stubs,
  };
}

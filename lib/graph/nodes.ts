import { Kind, parse, print, type ConstDirectiveNode, type DefinitionNode, type DocumentNode } from 'graphql';
import { namedTypeOf } from './type-nodes.js';

/**
 * Global object identification: an entity whose home subgraph marks it
 * `@node(access: "<Type>.<field>")` implements `Node`, answers a `nodeId`
 * and is refetched by `node(id:)` / `nodes(ids:)`. `nodeId` and not `id`:
 * many entities already answer their own key as `id`, which clients read.
 * The node subgraph (schema/node.graphql, written by `npm run compose`) is
 * made from these declarations; `access` names the role-table row the node
 * door applies (the entity's own lookup where it has one), so the door is
 * never weaker than the entity's other doors.
 */
export const NODE_DIRECTIVE = 'node';
export const NODE_COMPONENT = 'node';

/** One entity that is a Node: its type, the fields of its key (with their SDL types) and the role-table row the node door applies. */
export interface NodeDeclaration {
  type: string;
  /** the component whose subgraph owns it (resolves its references) */
  home: string;
  key: readonly { field: string; type: string; named: string }[];
  access: string;
  /** the enums its key fields take, as its home declares them (the node subgraph declares them too) */
  enums: readonly string[];
}

const stringArgument = (directive: ConstDirectiveNode, name: string): string | undefined => {
  const value = directive.arguments?.find((arg) => arg.name.value === name)?.value;
  return value?.kind === Kind.STRING ? value.value : undefined;
};

/** The `@node` declarations of one component's SDL, read before the directive is dropped. */
export function nodeDeclarations(document: DocumentNode, home: string): NodeDeclaration[] {
  return document.definitions.flatMap((definition) => {
    if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION) return [];
    const directive = definition.directives?.find((found) => found.name.value === NODE_DIRECTIVE);
    if (!directive) return [];
    const type = definition.name.value;
    const access = stringArgument(directive, 'access');
    if (!access || !/^[A-Z]\w*\.\w+$/.test(access)) throw new Error(`@${NODE_DIRECTIVE} of ${type}: access names a row, "<Type>.<field>"`);
    const keys = (definition.directives ?? []).filter((found) => found.name.value === 'key');
    const fields = keys.length === 1 ? stringArgument(keys[0]!, 'fields')?.trim().split(/\s+/) : undefined;
    if (!fields?.length) throw new Error(`@${NODE_DIRECTIVE} of ${type}: a Node has exactly one @key`);
    const key = fields.map((field) => {
      const found = definition.fields?.find((candidate) => candidate.name.value === field);
      if (!found) throw new Error(`@${NODE_DIRECTIVE} of ${type}: key field ${field} is not declared`);
      return { field, type: print(found.type), named: namedTypeOf(found.type) };
    });
    const enums = key.flatMap(({ named }) =>
      document.definitions.filter((found) => found.kind === Kind.ENUM_TYPE_DEFINITION && found.name.value === named).map((found) => print(found)),
    );
    return [{ type, home, key, access, enums }];
  });
}

/** A component's SDL without its `@node` marks (the node subgraph answers for them). */
export function withoutNodeMarks(document: DocumentNode): DocumentNode {
  return {
    ...document,
    definitions: document.definitions.map((definition): DefinitionNode => {
      if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION || !definition.directives?.some((found) => found.name.value === NODE_DIRECTIVE)) return definition;
      return { ...definition, directives: definition.directives.filter((found) => found.name.value !== NODE_DIRECTIVE) };
    }),
  };
}

/** Most ids a `nodes` call takes: one screen's worth. */
export const MOST_NODES = 100;

/** The node subgraph's SDL: `Node`, the two lookups and a stub of each declared entity, which answers its `nodeId` from its key. */
export function nodeSubgraphDocument(declarations: readonly NodeDeclaration[]): DocumentNode {
  const sorted = [...declarations].sort((a, b) => a.type.localeCompare(b.type));
  const stubs = sorted.map(
    ({ type, key }) =>
      `"""${type}, as a Node: the gateway reads its other fields from the subgraphs that own them."""\n` +
      `type ${type} implements Node @key(fields: "${key.map(({ field }) => field).join(' ')}") {\n` +
      key.map(({ field, type: fieldType }) => `  "part of its key"\n  ${field}: ${fieldType}\n`).join('') +
      `  "its global id, for node(id:) and a client's cache"\n  nodeId: ID!\n}\n`,
  );
  const enums = [...new Set(sorted.flatMap(({ enums: declared }) => declared))];
  const sdl = `extend schema @link(url: "https://specs.apollo.dev/federation/v2.9", import: ["@key", "@listSize"])

"""An object with a global id that node(id:) refetches, whichever subgraph it lives in."""
interface Node {
  "its global id: opaque, stable, the same in every answer"
  nodeId: ID!
}

type Query {
  "The object with this global id, if the caller may read it; null for an id of nothing the caller may read."
  node("a nodeId" id: ID!): Node
  "The objects with these global ids, in their order (at most ${MOST_NODES}); null where the caller may not read one."
  nodes("nodeIds" ids: [ID!]!): [Node]! @listSize(assumedSize: ${MOST_NODES})
}

${enums.join('\n\n')}

${stubs.join('\n')}`;
  return parse(sdl);
}

export const printNodeSubgraph = (declarations: readonly NodeDeclaration[]): string =>
  `# Written by \`npm run compose\` from the @node marks of the other subgraphs (lib/graph/nodes.ts): do not edit.\n${print(nodeSubgraphDocument(declarations))}\n`;

/** The global id of an entity: its type and key values, base64url-encoded (opaque to clients). */
export function encodeNodeId(type: string, values: readonly unknown[]): string {
  return Buffer.from(`${type}:${JSON.stringify(values)}`, 'utf8').toString('base64url');
}

/** Longest global id read: far above any real key, short enough that a hostile one costs nothing. */
export const LONGEST_NODE_ID = 1024;

/** A global id read back into its type and key values; undefined for anything this platform did not make. */
export function decodeNodeId(id: string, declarations: ReadonlyMap<string, NodeDeclaration>): { declaration: NodeDeclaration; values: unknown[] } | undefined {
  if (id.length > LONGEST_NODE_ID || !/^[A-Za-z0-9_-]+$/.test(id)) return undefined;
  const text = Buffer.from(id, 'base64url').toString('utf8');
  const colon = text.indexOf(':');
  const declaration = colon > 0 ? declarations.get(text.slice(0, colon)) : undefined;
  if (!declaration) return undefined;
  let values: unknown;
  try {
    values = JSON.parse(text.slice(colon + 1));
  } catch {
    return undefined;
  }
  if (!Array.isArray(values) || values.length !== declaration.key.length) return undefined;
  const fits = declaration.key.every(({ named }, index) => {
    const value: unknown = values[index];
    return named === 'Int' ? Number.isSafeInteger(value) : typeof value === 'string' && value.length > 0;
  });
  return fits ? { declaration, values } : undefined;
}

/** The key fields of an entity as a representation the gateway resolves by. */
export const nodeReference = (declaration: NodeDeclaration, values: readonly unknown[]): Record<string, unknown> => ({
  __typename: declaration.type,
  ...Object.fromEntries(declaration.key.map(({ field }, index) => [field, values[index]])),
});

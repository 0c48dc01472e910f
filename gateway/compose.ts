import path from 'node:path';
import { composeServices } from '@apollo/composition';
import { parse, print } from 'graphql';
import { withOwnersDescriptions } from '../lib/graph/shared-descriptions.js';
import { NODE_COMPONENT, printNodeSubgraph } from '../lib/graph/nodes.js';
import { rootRequirements, withRequiredArguments } from '../lib/graph/required.js';
import { componentSchemaDocument, declaredNodes, SCHEMA_DIR, sdlComponents } from '../lib/subgraph.js';
import { COMPONENTS } from './components.js';

export const SUPERGRAPH_FILE = path.join(SCHEMA_DIR, 'supergraph.graphql');

/** The node subgraph's SDL, made from the other subgraphs' `@node` marks (lib/graph/nodes.ts). */
export const NODE_SUBGRAPH_FILE = path.join(SCHEMA_DIR, `${NODE_COMPONENT}.graphql`);
export const nodeSubgraphSdl = (): string => printNodeSubgraph([...declaredNodes().values()]);

/** In-process subgraphs are addressed as local://<name>; SUBGRAPH_<NAME>_URL overrides at run time. */
export const localUrl = (name: string) => `local://${name}`;

/** Composes schema/<component>.graphql into the supergraph SDL; throws with composition's messages. */
export function composeSupergraph(): string {
  const documents = withOwnersDescriptions(sdlComponents().map((name) => ({ name, document: componentSchemaDocument(name).document })));
  const result = composeServices(documents.map(({ name, document }) => ({ name, url: localUrl(name), typeDefs: document })));
  if (result.errors) throw new Error(`composition failed:\n${result.errors.map((e) => e.message).join('\n')}`);
  // What the components' input rules always require is non-null in the API (lib/graph/required.ts); the subgraphs keep REST's codes.
  const strict = withRequiredArguments(parse(result.supergraphSdl), rootRequirements(COMPONENTS.map((component) => component.inputs)));
  return print(strict) + '\n';
}

import type { GraphQLSchema } from 'graphql';
import type { PlatformDeps } from '../lib/deps.js';

/** One platform component: a federated subgraph built from the shared dependencies. */
export interface Component {
  /** subgraph name; its SDL is schema/<name>.graphql */
  name: string;
  build(deps: PlatformDeps): Promise<GraphQLSchema>;
}

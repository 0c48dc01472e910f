import type { GraphQLSchema } from 'graphql';
import type { PlatformDeps, PlatformServices } from '../lib/deps.js';

/** One platform component: a federated subgraph built from the shared dependencies. */
export interface Component {
  /** subgraph name; its SDL is schema/<name>.graphql */
  name: string;
  /**
   * The services it offers to the other components, built once per process
   * (in COMPONENTS order) whether or not its subgraph runs in this process.
   */
  services?(deps: PlatformDeps): Partial<PlatformServices> | Promise<Partial<PlatformServices>>;
  /** its subgraph schema, resolvers over deps.services */
  build(deps: PlatformDeps): Promise<GraphQLSchema>;
}

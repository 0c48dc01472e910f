import type { PlatformDeps, PlatformServices } from '../lib/deps.js';
import type { JobDefinitions } from '../lib/jobs/types.js';
import type { FieldInputs } from '../lib/graph/inputs.js';
import type { LiveDeclaration } from '../lib/live.js';
import type { Access } from '../lib/roles.js';
import type { Settings, SettingValues } from '../lib/settings.js';

/** Resolvers by type and field, as a component writes them (a scalar is its GraphQLScalarType). */
export type ComponentResolvers = Record<string, object>;

/**
 * One platform component: a folder under subgraphs/ and one line in the
 * registry (gateway/components.ts), which pairs it with its REST routes and
 * job handlers. Everything shared is assembled from these declarations: the
 * role table, the configuration and its table in docs/configuration.md.
 */
export interface Component<S extends Settings = Settings> {
  /** subgraph name; its SDL is schema/<name>.graphql */
  name: string;
  /**
   * The components whose services it uses: built before it, and the only
   * other components' services it sees (the registry orders by these and
   * refuses a loop). A component that must reach one above it offers a port
   * that the one above plugs its implementation into.
   */
  uses?: readonly string[];
  /** who may call each of its GraphQL fields, "<Type>.<field>": every root field, and entity fields that need more than their parent */
  access: Readonly<Record<string, Access>>;
  /** the input rules of its root fields (subgraphs/<name>/inputs.ts), which its REST routes reuse */
  inputs?: FieldInputs;
  /** the environment variables it reads */
  settings?: S;
  /**
   * The services it offers to the other components (each declares them in
   * PlatformServices), built once per process in COMPONENTS order, whether
   * or not its subgraph runs in this process.
   */
  services?(deps: PlatformDeps, settings: SettingValues<S>): Partial<PlatformServices> | Promise<Partial<PlatformServices>>;
  /** its subgraph's resolvers, over deps.services */
  resolvers(deps: PlatformDeps, settings: SettingValues<S>): ComponentResolvers;
  /** its subscriptions (live queries) and the tables whose writes they watch */
  live?: LiveDeclaration;
  /** its subgraph needs the gateway's reach to every other subgraph: it always runs in the gateway's process, never as its own service */
  inGateway?: boolean;
  /** work before its subgraph serves (bootstrap rows), run where the subgraph runs */
  start?(deps: PlatformDeps, settings: SettingValues<S>): Promise<void>;
}

/** Any component, whatever its settings: the element type of COMPONENTS (settings are contravariant in services). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyComponent = Component<any>;

/** Declares a component, inferring its settings' types for services and resolvers. */
export const defineComponent = <S extends Settings>(component: Component<S>): Component<S> => component;

/** A component's job handlers by kind, built over the services and its settings; declared in its registry line. */
export type ComponentJobs<S extends Settings = Settings> = (deps: PlatformDeps, settings: SettingValues<S>) => JobDefinitions;

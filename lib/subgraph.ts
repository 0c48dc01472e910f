import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSubgraphSchema } from '@apollo/subgraph';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import { GraphQLScalarType, parse, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { RequestContext } from './context.js';
import { PlatformError } from './errors.js';
import { checkArguments, parseArguments, type FieldInputs } from './graph/inputs.js';
import { orderedArguments, withNaturalOrders, type NaturalOrder } from './graph/ordering.js';
import { NODE_COMPONENT, nodeDeclarations, withoutNodeMarks, type NodeDeclaration } from './graph/nodes.js';
import { withBackwardPaging } from './graph/paging.js';
import { withPayloads, type PayloadShape } from './graph/payloads.js';
import type { Access } from './roles.js';

export const SCHEMA_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'schema');

/**
 * The `.graphql` files of a folder, in name order, joined: a large component
 * keeps one file per area (schema/<name>/, rest-compat/<name>/).
 */
export function graphqlFilesIn(dir: string): string | undefined {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return undefined;
  const files = readdirSync(dir)
    .filter((file) => file.endsWith('.graphql'))
    .sort();
  return files.length ? files.map((file) => readFileSync(path.join(dir, file), 'utf8')).join('\n') : undefined;
}

/** The SDL of one component: schema/<name>.graphql, or the files of schema/<name>/. */
export function componentTypeDefs(name: string): string {
  return graphqlFilesIn(path.join(SCHEMA_DIR, name)) ?? readFileSync(path.join(SCHEMA_DIR, `${name}.graphql`), 'utf8');
}

/** A component's SDL as its resolvers see it: every list ordered (lib/graph/ordering.ts) and also paged backward (lib/graph/paging.ts). */
function componentPlainSchema(name: string): { document: DocumentNode; orders: ReadonlyMap<string, NaturalOrder> } {
  const { document, orders } = withNaturalOrders(withoutNodeMarks(parse(componentTypeDefs(name))));
  return { document: withBackwardPaging(document), orders };
}

let declaredOnce: ReadonlyMap<string, NodeDeclaration> | undefined;

/** Every entity the other components mark `@node`, by type (lib/graph/nodes.ts); the node subgraph is made from these. Read once: the SDL files do not change while the process runs. */
export function declaredNodes(): ReadonlyMap<string, NodeDeclaration> {
  if (declaredOnce) return declaredOnce;
  const declared = new Map<string, NodeDeclaration>();
  for (const name of sdlComponents().filter((component) => component !== NODE_COMPONENT))
    for (const declaration of nodeDeclarations(parse(componentTypeDefs(name)), name)) {
      if (declared.has(declaration.type)) throw new Error(`${declaration.type} is marked @node in two subgraphs`);
      declared.set(declaration.type, declaration);
    }
  declaredOnce = declared;
  return declared;
}

export const componentPlainDocument = (name: string): DocumentNode => componentPlainSchema(name).document;

/** A component's schema as served: its plain SDL with every mutation in the payload convention (lib/graph/payloads.ts). */
export function componentSchemaDocument(name: string): {
  document: DocumentNode;
  shapes: ReadonlyMap<string, PayloadShape>;
  orders: ReadonlyMap<string, NaturalOrder>;
} {
  const { document, orders } = componentPlainSchema(name);
  return { ...withPayloads(document), orders };
}

/** Every component with an SDL (a file or a folder under schema/), in name order. */
export const sdlComponents = (): string[] =>
  readdirSync(SCHEMA_DIR, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory() ? [entry.name] : entry.name.endsWith('.graphql') && entry.name !== 'supergraph.graphql' ? [entry.name.slice(0, -8)] : [],
    )
    .sort();

/** The role table: "<Type>.<field>" to its access rule. */
export type AccessTable = Readonly<Record<string, Access>>;

/** The operations of a role table a caller with these roles may run: the open ones and those one of its roles opens, sorted. */
export function permittedOperations(table: AccessTable, roles: readonly string[]): string[] {
  return Object.entries(table)
    .filter(([, rule]) => rule.kind !== 'roles' || rule.roles.some((role) => roles.includes(role)))
    .map(([operation]) => operation)
    .sort();
}

type Resolver = (parent: unknown, args: Record<string, unknown>, context: RequestContext, info: unknown) => unknown;

/**
 * Refusals of who the caller is stay top-level errors (GitHub's and Shopify's way): they are not
 * about the input. A missing, unreadable or spent token is one, also where the mutation's work is
 * the token itself (invalidateToken).
 */
const CALLER_REFUSALS = new Set(['KER-ATH-401', 'KER-ATH-403', 'KER-ATH-006', 'KER-ATH-007', 'KER-ATH-008']);

/**
 * A mutation in the payload convention: the caller is checked first (a
 * refusal is a top-level error), then every input field (all refusals in
 * `userErrors`), then the resolver runs on the plain arguments; a platform
 * error it raises is a user error too. Nothing was written when a payload
 * holds user errors: the resolver either did not run or failed as a whole.
 */
function payloadMutation(resolve: Resolver, shape: PayloadShape, inputs: FieldInputs | undefined, field: string): Resolver {
  const refused = (userErrors: { field: readonly string[] | null; code: string; message: string }[]) => ({ [shape.resultField]: null, userErrors });
  return async (parent, args, context, info) => {
    const given = shape.gathered ? ((args.input ?? {}) as Record<string, unknown>) : args;
    const checked = inputs ? checkArguments(inputs, field, given) : { ok: true as const, args: given };
    if (!checked.ok) return refused(checked.refusals.map(({ path, code, message }) => ({ field: shape.gathered ? ['input', ...path] : path, code, message })));
    try {
      return { [shape.resultField]: await resolve(parent, checked.args, context, info), userErrors: [] };
    } catch (error) {
      if (!(error instanceof PlatformError) || CALLER_REFUSALS.has(error.code)) throw error;
      const at = error.field ? (shape.gathered ? ['input', ...error.field] : [...error.field]) : null;
      return refused([{ field: at, code: error.code, message: error.message }]);
    }
  };
}

/** Checks one row of the role table; a root field missing from the table is denied. */
export async function authorize(access: Access | undefined, operation: string, context: RequestContext, specOpenEndpoints = false): Promise<void> {
  if (!access) throw new PlatformError('KER-ATH-403', `Forbidden: ${operation} is not open to any role`);
  if (access.kind === 'public' || (access.kind === 'roles' && access.specOpen && specOpenEndpoints)) return;
  const principal = await context.principal();
  if (access.kind === 'roles' && !principal.roles.some((role) => (access.roles as readonly string[]).includes(role))) {
    throw new PlatformError('KER-ATH-403', 'Forbidden: the token has no role allowed for this operation');
  }
}

/**
 * Wraps every root field, and every entity field with a row of its own, in
 * the role check: a root field without a row is denied; an entity field
 * without one is as open as the object that holds it. `<Type>.__resolveReference`
 * guards fetching an entity by its key.
 */
function guardFields(
  resolvers: Record<string, object>,
  table: AccessTable,
  specOpenEndpoints: boolean,
  inputs: FieldInputs | undefined,
  payloads: ReadonlyMap<string, PayloadShape>,
): GraphQLResolverMap<unknown> {
  const guarded: Record<string, object> = {};
  for (const [typeName, fields] of Object.entries(resolvers)) {
    if (fields instanceof GraphQLScalarType) {
      guarded[typeName] = fields;
      continue;
    }
    const root = typeName === 'Query' || typeName === 'Mutation';
    guarded[typeName] = Object.fromEntries(
      Object.entries(fields).map(([field, resolve]) => {
        const operation = `${typeName}.${field}`;
        if ((!root && !table[operation]) || typeof resolve !== 'function') return [field, resolve];
        if (field === '__resolveReference') {
          // An entity fetched by its key (the gateway's _entities, or a caller reaching the subgraph directly).
          const reference = async (ref: unknown, context: RequestContext, info: unknown) => {
            await authorize(table[operation], operation, context, specOpenEndpoints);
            return (resolve as (ref: unknown, context: RequestContext, info: unknown) => unknown)(ref, context, info);
          };
          return [field, reference];
        }
        // Root fields: the caller first, then the component's input rules (the same its REST routes validate with).
        const schemaArgs = root && inputs?.schemas[field] ? inputs : undefined;
        const payload = typeName === 'Mutation' ? payloads.get(field) : undefined;
        const run: Resolver = payload
          ? payloadMutation(resolve as Resolver, payload, schemaArgs, field)
          : (parent, args, context, info) => (resolve as Resolver)(parent, schemaArgs ? parseArguments(schemaArgs, field, args) : args, context, info);
        const wrapped: Resolver = async (parent, args, context, info) => {
          await authorize(table[operation], operation, context, specOpenEndpoints);
          return run(parent, args, context, info);
        };
        return [field, wrapped];
      }),
    );
  }
  // An entity field with a row but no resolver of its own reads its parent's property: it is guarded all the same.
  for (const [operation, access] of Object.entries(table)) {
    const [typeName = '', field = ''] = operation.split('.');
    // Subscription rows guard the gateway's live queries (gateway/live.ts); a subgraph never resolves them.
    if (typeName === 'Query' || typeName === 'Mutation' || typeName === 'Subscription' || field === '__resolveReference') continue;
    const fields = (guarded[typeName] ??= {}) as Record<string, unknown>;
    if (fields[field]) continue;
    const guardedDefault: Resolver = async (parent, _args, context) => {
      await authorize(access, operation, context, specOpenEndpoints);
      return (parent as Record<string, unknown>)[field];
    };
    fields[field] = guardedDefault;
  }
  return guarded as GraphQLResolverMap<unknown>;
}

/** Each list with an order of its own reads `orderBy` as `reversed` before its guard and resolver see the arguments. */
function ordered(resolvers: Record<string, Record<string, unknown>>, orders: ReadonlyMap<string, NaturalOrder>): Record<string, Record<string, unknown>> {
  for (const [coordinate, natural] of orders) {
    const [typeName = '', field = ''] = coordinate.split('.');
    // A subscription is answered by its query (gateway/live.ts), which reads the order itself.
    if (typeName === 'Subscription') continue;
    const resolve = resolvers[typeName]?.[field];
    if (typeof resolve !== 'function') throw new Error(`${coordinate} declares its order but has no resolver`);
    const refuse = (message: string) => new PlatformError('BAD_USER_INPUT', message);
    resolvers[typeName]![field] = (parent: unknown, args: Record<string, unknown>, context: unknown, info: unknown) =>
      (resolve as Resolver)(parent, orderedArguments(args, natural, refuse), context as RequestContext, info);
  }
  return resolvers;
}

/** A component's federated schema with its fields behind its role table. */
export function buildComponentSchema(
  name: string,
  resolvers: Record<string, object>,
  table: AccessTable,
  specOpenEndpoints = false,
  inputs?: FieldInputs,
): GraphQLSchema {
  const { document, shapes, orders } = componentSchemaDocument(name);
  const guarded = guardFields(resolvers, table, specOpenEndpoints, inputs, shapes) as Record<string, Record<string, unknown>>;
  return buildSubgraphSchema({ typeDefs: document, resolvers: ordered(guarded, orders) as GraphQLResolverMap<unknown> });
}

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSubgraphSchema } from '@apollo/subgraph';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import { parse, type GraphQLSchema } from 'graphql';
import type { RequestContext } from './context.js';
import { PlatformError } from './errors.js';
import { accessFor } from './roles.js';

export const SCHEMA_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'schema');

/** The SDL of one component, from schema/<name>.graphql. */
export function componentTypeDefs(name: string): string {
  return readFileSync(path.join(SCHEMA_DIR, `${name}.graphql`), 'utf8');
}

type Resolver = (parent: unknown, args: Record<string, unknown>, context: RequestContext, info: unknown) => unknown;

/** Checks the role table before a root field runs; a field missing from the table is denied. */
export async function authorize(operation: string, context: RequestContext, specOpenEndpoints = false): Promise<void> {
  const access = accessFor(operation);
  if (!access) throw new PlatformError('KER-ATH-403', `Forbidden: ${operation} is not open to any role`);
  if (access.kind === 'public' || (access.kind === 'roles' && access.specOpen && specOpenEndpoints)) return;
  const principal = await context.principal();
  if (access.kind === 'roles' && !principal.roles.some((role) => (access.roles as readonly string[]).includes(role))) {
    throw new PlatformError('KER-ATH-403', 'Forbidden: the token has no role allowed for this operation');
  }
}

function guardRootFields(resolvers: Record<string, Record<string, unknown>>, specOpenEndpoints: boolean): GraphQLResolverMap<unknown> {
  const guarded: Record<string, Record<string, unknown>> = {};
  for (const [typeName, fields] of Object.entries(resolvers)) {
    if (typeName !== 'Query' && typeName !== 'Mutation') {
      guarded[typeName] = fields;
      continue;
    }
    guarded[typeName] = Object.fromEntries(
      Object.entries(fields).map(([field, resolve]) => {
        const operation = `${typeName}.${field}`;
        const wrapped: Resolver = async (parent, args, context, info) => {
          await authorize(operation, context, specOpenEndpoints);
          return (resolve as Resolver)(parent, args, context, info);
        };
        return [field, wrapped];
      }),
    );
  }
  return guarded as GraphQLResolverMap<unknown>;
}

/** A component's federated schema with every root field behind the role table. */
export function buildComponentSchema(name: string, resolvers: Record<string, Record<string, unknown>>, specOpenEndpoints = false): GraphQLSchema {
  return buildSubgraphSchema({ typeDefs: parse(componentTypeDefs(name)), resolvers: guardRootFields(resolvers, specOpenEndpoints) });
}

import type { ApolloServer } from '@apollo/server';
import { Kind, OperationTypeNode, parse, type OperationDefinitionNode } from 'graphql';
import type { RequestContext } from '../lib/context.js';
import { componentTypeDefs } from '../lib/subgraph.js';
import type { Operation } from '../rest-compat/operations.js';
import type { OperationExecutor } from '../rest-compat/handler.js';
import type { CachedLocalDataSource } from './data-sources.js';

/** Which subgraph defines each root field, "<Type>.<field>", from the components' SDL. */
function rootFieldOwners(names: readonly string[]): Map<string, string> {
  const owners = new Map<string, string>();
  for (const name of names) {
    for (const definition of parse(componentTypeDefs(name)).definitions) {
      if (
        (definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.OBJECT_TYPE_EXTENSION) ||
        !['Query', 'Mutation'].includes(definition.name.value)
      )
        continue;
      for (const field of definition.fields ?? []) owners.set(`${definition.name.value}.${field.name.value}`, name);
    }
  }
  return owners;
}

/** The one subgraph that serves every root field of the operation, if there is one. */
function ownerOf(operation: Operation<unknown, unknown>, owners: Map<string, string>): string | undefined {
  const definition = parse(operation.query).definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && d.name?.value === operation.name,
  );
  if (!definition) return undefined;
  const type = definition.operation === OperationTypeNode.MUTATION ? 'Mutation' : 'Query';
  const found = new Set(
    definition.selectionSet.selections.map((selection) => (selection.kind === Kind.FIELD ? owners.get(`${type}.${selection.name.value}`) : undefined)),
  );
  return found.size === 1 ? [...found][0] : undefined;
}

/**
 * Runs the REST layer's named operations. Each touches one subgraph: when it
 * runs in this process, the operation goes straight to it (the same schema,
 * resolvers, role checks and error masking the gateway would reach, without
 * planning a one-step query); otherwise through the gateway, which forwards
 * it to the remote subgraph.
 */
export function restExecutor(
  gateway: ApolloServer<RequestContext>,
  localSources: ReadonlyMap<string, CachedLocalDataSource>,
  componentNames: readonly string[],
): OperationExecutor {
  const owners = rootFieldOwners(componentNames);
  const routes = new Map<string, CachedLocalDataSource | null>();
  const viaGateway: OperationExecutor = async (operation, variables, contextValue) => {
    const result = await gateway.executeOperation(
      { query: operation.query, operationName: operation.name, variables: variables as Record<string, unknown> },
      { contextValue },
    );
    if (result.body.kind !== 'single') throw new Error('incremental delivery is not used by the REST layer');
    return result.body.singleResult;
  };
  return async (operation, variables, contextValue) => {
    const key = `${operation.name}\0${operation.query}`;
    let local = routes.get(key);
    if (local === undefined) {
      const owner = ownerOf(operation, owners);
      local = (owner && localSources.get(owner)) || null;
      routes.set(key, local);
    }
    if (!local) return viaGateway(operation, variables, contextValue);
    const result = await local.process({
      request: { query: operation.query, operationName: operation.name, variables: variables as Record<string, unknown> },
      context: contextValue,
    } as Parameters<CachedLocalDataSource['process']>[0]);
    return result;
  };
}

import type { ApolloServer } from '@apollo/server';
import { Kind, OperationTypeNode, parse, type OperationDefinitionNode } from 'graphql';
import type { RequestContext } from '../lib/context.js';
import { componentTypeDefs } from '../lib/subgraph.js';
import type { Operation } from '../rest-compat/operations.js';
import type { OperationExecutor } from '../rest-compat/handler.js';
import type { GraphQLDataSource } from '@apollo/gateway';
import { processOn } from './data-sources.js';

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
 * Runs the REST layer's named operations. Each touches one subgraph and goes
 * straight to it, in this process or remote (the same schema, resolvers, role
 * checks and error masking the gateway would reach, without planning a
 * one-step query): the subgraph's own argument types hold, so a value REST
 * leaves out is answered with the specification's code, never refused by the
 * API's stricter types (lib/graph/required.ts). An operation no one subgraph
 * serves goes through the gateway.
 */
export function restExecutor(
  gateway: ApolloServer<RequestContext>,
  sources: ReadonlyMap<string, GraphQLDataSource<RequestContext>>,
  componentNames: readonly string[],
): OperationExecutor {
  const owners = rootFieldOwners(componentNames);
  const routes = new Map<string, GraphQLDataSource<RequestContext> | null>();
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
    let source = routes.get(key);
    if (source === undefined) {
      const owner = ownerOf(operation, owners);
      source = (owner && sources.get(owner)) || null;
      routes.set(key, source);
    }
    if (!source) return viaGateway(operation, variables, contextValue);
    return processOn(source, { query: operation.query, operationName: operation.name, variables: variables as Record<string, unknown> }, contextValue);
  };
}

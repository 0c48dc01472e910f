import { MAX_JSON_DEPTH, nestsDeeperThan } from '../lib/input.js';
import type { ApolloServerOptions, ApolloServerPlugin, GraphQLRequestContextDidResolveOperation } from '@apollo/server';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import { GraphQLError, Kind, visit, type DocumentNode, type ValidationContext, type ValidationRule } from 'graphql';
import type { GraphqlLimits } from '../lib/config.js';
import type { RequestContext } from '../lib/context.js';
import { PlatformError } from '../lib/errors.js';
import { costRefusal, registeredOperations, supergraphListSizes, type ListSizes } from './graphql-cost.js';

/**
 * The options that refuse a hostile document before anything runs: a token
 * budget at parse time, then depth, alias and directive rules at validation
 * (GraphQL Armor), each with its own setting; 0 turns one off. The cost rule
 * needs the request's variables, which validation does not see (Apollo
 * validates a document once for all its requests): it is `costLimit`, a plugin.
 */
export function limitOptions(limits: GraphqlLimits): Pick<ApolloServerOptions<RequestContext>, 'parseOptions' | 'validationRules'> {
  // Armor's rules throw by default, which Apollo answers with a 500; reported instead, they are validation errors (400).
  const refuse = { exposeLimits: true, propagateOnRejection: false, onReject: [reportRefusal] };
  const rules: ValidationRule[] = [];
  if (limits.maxDepth) rules.push(maxDepthRule({ n: limits.maxDepth, ignoreIntrospection: true, ...refuse }));
  if (limits.maxAliases) rules.push(maxAliasesRule({ n: limits.maxAliases, ...refuse }));
  if (limits.maxDirectives) rules.push(maxDirectivesRule({ n: limits.maxDirectives, ...refuse }));
  return { parseOptions: limits.maxTokens ? { maxTokens: limits.maxTokens } : {}, validationRules: rules };
}

function reportRefusal(context: ValidationContext | null, error: GraphQLError): void {
  context?.reportError(new GraphQLError(error.message.replace(/^Syntax Error: /, 'Refused: ')));
}

function selectsIntrospection(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    [Kind.FIELD]: (node) => {
      if (node.name.value === '__schema' || node.name.value === '__type') {
        found = true;
        return false;
      }
      return undefined;
    },
  });
  return found;
}

/**
 * Introspection describes every operation of the platform: it needs a valid
 * token (any role) unless PLATFORM_GRAPHQL_INTROSPECTION=public.
 */
export function introspectionGuard(limits: GraphqlLimits): ApolloServerPlugin<RequestContext> {
  return {
    requestDidStart() {
      if (limits.introspection === 'public') return Promise.resolve();
      return Promise.resolve({
        async didResolveOperation({ document, contextValue }) {
          if (!selectsIntrospection(document)) return;
          try {
            await contextValue.principal();
          } catch (error) {
            if (!(error instanceof PlatformError)) throw error;
            throw new GraphQLError(`Introspection needs a valid token: ${error.message}`, { extensions: { code: error.code, catalogue: true } });
          }
        },
      });
    },
  };
}

/**
 * PLATFORM_GRAPHQL_MAX_COST, checked once the operation and its variables
 * are known: a page size passed as a variable costs what the same literal
 * does. Refused as a validation error (HTTP 400), as the other limits are.
 * The sizes and the registered operations are read once, at start.
 */
export function costLimit(
  limits: GraphqlLimits,
  sizes: ListSizes = supergraphListSizes(),
  registered: ReadonlySet<string> = registeredOperations(),
): ApolloServerPlugin<RequestContext> {
  return refuseBeforeExecution((request) => costRefusal(limits.maxCost, sizes, registered, request));
}

/**
 * Variables nested deeper than a REST body may be (MAX_JSON_DEPTH) are
 * refused before execution, as the REST edge refuses such bodies: coercion
 * and the resolvers' checks recurse, and a stack overflow must not become an
 * internal error. One rule by either door.
 */
export function variablesDepthLimit(): ApolloServerPlugin<RequestContext> {
  return refuseBeforeExecution(({ request }) =>
    request.variables && nestsDeeperThan(request.variables, MAX_JSON_DEPTH)
      ? new GraphQLError(`Refused: variables nest deeper than ${MAX_JSON_DEPTH} levels`, { extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } })
      : null,
  );
}

/** A plugin that refuses an operation, once it and its variables are known, with the error `check` returns (null lets it run). */
function refuseBeforeExecution(
  check: (request: GraphQLRequestContextDidResolveOperation<RequestContext>) => GraphQLError | null,
): ApolloServerPlugin<RequestContext> {
  return {
    requestDidStart() {
      return Promise.resolve({
        didResolveOperation(request) {
          const refusal = check(request);
          return refusal ? Promise.reject(refusal) : Promise.resolve();
        },
      });
    },
  };
}

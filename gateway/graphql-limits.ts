import type { ApolloServerOptions, ApolloServerPlugin } from '@apollo/server';
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import { GraphQLError, Kind, visit, type DocumentNode, type ValidationContext, type ValidationRule } from 'graphql';
import type { GraphqlLimits } from '../lib/config.js';
import type { RequestContext } from '../lib/context.js';
import { PlatformError } from '../lib/errors.js';

/**
 * The options that refuse a hostile document before anything runs: a token
 * budget at parse time, then depth, alias, directive and cost rules at
 * validation (GraphQL Armor), each with its own setting; 0 turns one off.
 */
export function limitOptions(limits: GraphqlLimits): Pick<ApolloServerOptions<RequestContext>, 'parseOptions' | 'validationRules'> {
  // Armor's rules throw by default, which Apollo answers with a 500; reported instead, they are validation errors (400).
  const refuse = { exposeLimits: true, propagateOnRejection: false, onReject: [reportRefusal] };
  const rules: ValidationRule[] = [];
  if (limits.maxDepth) rules.push(maxDepthRule({ n: limits.maxDepth, ignoreIntrospection: true, ...refuse }));
  if (limits.maxAliases) rules.push(maxAliasesRule({ n: limits.maxAliases, ...refuse }));
  if (limits.maxDirectives) rules.push(maxDirectivesRule({ n: limits.maxDirectives, ...refuse }));
  if (limits.maxCost) rules.push(costLimitRule({ maxCost: limits.maxCost, ignoreIntrospection: true, ...refuse }));
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

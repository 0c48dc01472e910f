import { readFileSync } from 'node:fs';
import type { GraphQLRequestContextDidResolveOperation } from '@apollo/server';
import {
  getNamedType,
  getNullableType,
  getVariableValues,
  GraphQLError,
  isCompositeType,
  isLeafType,
  isListType,
  isObjectType,
  Kind,
  parse,
  valueFromAST,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { RequestContext } from '../lib/context.js';
import { DEFAULT_PAGE } from '../lib/graph/connection.js';
import { SUPERGRAPH_FILE } from './compose.js';
import { REST_ROUTES } from './components.js';

// The cost of a GraphQL operation with its variables (graphql-limits.ts refuses one over the budget):
// objects and scalars weighed by the rows of every list around them.

/**
 * What one row of a result costs: each object resolved counts 1 (it may need
 * a query or a reference), each scalar ¼ (read off a loaded row). A Relay
 * edge is a wrapper: its node carries the row's cost.
 */
export const COST_WEIGHTS = { object: 1, scalar: 0.25 } as const;
/** The arguments that size a list: Relay's `first`/`last`, MOSIP's paged lists' `pageSize`, the outbox's `limit`. */
export const PAGE_ARGUMENTS: ReadonlySet<string> = new Set(['first', 'last', 'pageSize', 'limit']);

/** `Type.field` → the rows a list field without a page argument is weighed as: its `@listSize(assumedSize: …)`. */
export type ListSizes = ReadonlyMap<string, number>;
const NO_SIZES: ListSizes = new Map();

/**
 * Every `@listSize(assumedSize: N)` of an SDL (imported or under federation's
 * prefix), by `Type.field`, type extensions included.
 */
export function assumedListSizes(sdl: string): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const definition of parse(sdl).definitions) {
    if (!('fields' in definition) || !('name' in definition) || !definition.name) continue;
    for (const field of definition.fields ?? []) {
      if (field.kind !== Kind.FIELD_DEFINITION) continue;
      const directive = field.directives?.find((d) => d.name.value === 'listSize' || d.name.value.endsWith('__listSize'));
      const assumed = directive?.arguments?.find((argument) => argument.name.value === 'assumedSize')?.value;
      if (assumed?.kind === Kind.INT) sizes.set(`${definition.name.value}.${field.name.value}`, Number(assumed.value));
    }
  }
  return sizes;
}

let supergraphSizes: ListSizes | undefined;
/**
 * The assumed sizes of the checked-in supergraph the gateway serves, read
 * once: the API schema the plugins see has dropped the directive.
 */
export function supergraphListSizes(): ListSizes {
  supergraphSizes ??= assumedListSizes(readFileSync(SUPERGRAPH_FILE, 'utf8'));
  return supergraphSizes;
}

const isEdgeType = (type: GraphQLCompositeType): boolean => isObjectType(type) && type.name.endsWith('Edge') && 'node' in type.getFields();

/**
 * The cost of an operation with its variables: every field, times the rows
 * it is resolved for. A list inside a field with a page argument (a
 * connection's edges, a page's data), or a list field with one of its own,
 * counts that many rows, the argument read as the request gives it (a literal
 * or a variable, the variable's default included) or, when absent, as the
 * schema's default or the platform's default page (20). Any other list counts
 * its declared `@listSize(assumedSize)` (`sizes`), 1 only when it declares
 * none. Fragments count at each spread, computed once each. Introspection and
 * __typename cost nothing. Null when the variables do not fit the operation
 * (execution refuses them before anything runs).
 */
export function operationCost(
  schema: GraphQLSchema,
  sizes: ListSizes,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Readonly<Record<string, unknown>>,
): number | null {
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables, { maxErrors: 1 });
  return coerced.errors ? null : costWithValues(schema, sizes, document, operation, coerced.coerced);
}

/** operationCost with the variables already coerced to the operation's types. */
export function costWithValues(
  schema: GraphQLSchema,
  sizes: ListSizes,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  values: Readonly<Record<string, unknown>>,
): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const fragmentCosts = new Map<string, number>();

  const pageOf = (definition: GraphQLField<unknown, unknown>, node: FieldNode): number | undefined => {
    let rows: number | undefined;
    const sizing = definition.args.filter((argument) => PAGE_ARGUMENTS.has(argument.name));
    // A list paged forward or backward counts the size given (`first` or `last`); the default only when neither is.
    const valueOf = (argument: (typeof sizing)[number]) => {
      const given = node.arguments?.find((a) => a.name.value === argument.name);
      return given ? valueFromAST(given.value, argument.type, values) : undefined;
    };
    const anyGiven = sizing.some((argument) => (valueOf(argument) ?? null) !== null);
    for (const argument of sizing) {
      const given = valueOf(argument);
      if (anyGiven && (given ?? null) === null) continue;
      const value: unknown = given ?? argument.defaultValue ?? DEFAULT_PAGE;
      const count = typeof value === 'number' && Number.isFinite(value) ? Math.max(0, value) : DEFAULT_PAGE;
      rows = Math.max(rows ?? 0, count);
    }
    return rows;
  };

  const costOf = (selectionSet: SelectionSetNode, type: GraphQLCompositeType, page: number | undefined): number => {
    let cost = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const condition = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : type;
        cost += costOf(selection.selectionSet, isCompositeType(condition) ? condition : type, page);
        continue;
      }
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const key = `${selection.name.value}\0${page ?? ''}`;
        let fragmentCost = fragmentCosts.get(key);
        if (fragmentCost === undefined) {
          const fragment = fragments.get(selection.name.value);
          const condition = fragment && schema.getType(fragment.typeCondition.name.value);
          fragmentCost = fragment && isCompositeType(condition) ? costOf(fragment.selectionSet, condition, page) : 0;
          fragmentCosts.set(key, fragmentCost);
        }
        cost += fragmentCost;
        continue;
      }
      const name = selection.name.value;
      if (name.startsWith('__')) continue;
      const definition = 'getFields' in type ? type.getFields()[name] : undefined;
      if (!definition) continue;
      const ownPage = pageOf(definition, selection);
      const isList = isListType(getNullableType(definition.type));
      const rows = isList ? (page ?? ownPage ?? sizes.get(`${type.name}.${name}`) ?? 1) : 1;
      const named = getNamedType(definition.type);
      if (isLeafType(named) || !selection.selectionSet || !isCompositeType(named)) {
        cost += rows * COST_WEIGHTS.scalar;
        continue;
      }
      const own = isEdgeType(named) ? 0 : COST_WEIGHTS.object;
      // A paged list has spent its page on itself; a paged object (a connection, a page) hands it to its lists.
      cost += rows * (own + costOf(selection.selectionSet, named, isList ? undefined : ownPage));
    }
    return cost;
  };

  const root = schema.getRootType(operation.operation);
  return root ? costOf(operation.selectionSet, root, undefined) : 0;
}

/** An operation's identity: its name and exact text. */
const operationKey = (name: string | null | undefined, query: string | undefined): string => `${name ?? ''}\0${query ?? ''}`;

/**
 * The platform's own REST operations by identity, as the REST layer sends
 * them in-process (gateway/rest-executor.ts). Their whole lists are bounded
 * by the caps their services enforce (refused beyond), not by a page, so
 * their declared sizes add up past the limit though the work does not.
 */
export function registeredOperations(): ReadonlySet<string> {
  return new Set(REST_ROUTES.map(({ operation }) => operationKey(operation.name, operation.query)));
}

/** What the cost rule reads of a request. */
export type CostedRequest = Pick<GraphQLRequestContextDidResolveOperation<RequestContext>, 'schema' | 'document' | 'operation' | 'request'>;

/**
 * The cost rule's refusal of a request, or null. A registered REST
 * operation passes when it comes in-process: a request from the network
 * always carries `http` (Apollo sets it), so a caller cannot claim to be
 * one, whatever it sends. A subgraph's own server (federation's `_service`
 * on its Query) is sent the gateway's fetches, the REST operations' among
 * them, which it cannot tell from a caller's: it weighs plain lists as one
 * row; the gateway, which sees whole operations, weighs them by `sizes`.
 */
export function costRefusal(maxCost: number, sizes: ListSizes, registered: ReadonlySet<string>, costed: CostedRequest): GraphQLError | null {
  const { schema, document, operation, request } = costed;
  if (!maxCost || !operation) return null;
  if (!request.http && registered.has(operationKey(request.operationName ?? operation.name?.value, request.query))) return null;
  const weighed = schema.getQueryType()?.getFields()._service ? NO_SIZES : sizes;
  const cost = operationCost(schema, weighed, document, operation, request.variables ?? {});
  if (cost === null || cost <= maxCost) return null;
  return new GraphQLError(`Refused: Query Cost limit of ${maxCost} exceeded, found ${Math.ceil(cost)}.`, {
    extensions: { code: 'GRAPHQL_VALIDATION_FAILED', http: { status: 400 } },
  });
}

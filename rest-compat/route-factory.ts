import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { Kind, OperationTypeNode, type OperationDefinitionNode } from 'graphql';
import type { z } from 'zod';
import type { FieldInputs } from '../lib/graph/inputs.js';
import { operation as namedOperation, type PayloadResults } from './operations.js';
import type { RestRoute, RouteInput } from './route.js';

/**
 * What the routes of one REST module share, declared once: the component
 * whose input rules give every route its field codes, the code of a failure
 * that is not the caller's, how an empty success `errors` reads, and where
 * envelope ids and paths start.
 */
export interface RouteModule {
  /** the component object of subgraphs/<name>/index.ts: its routes' operations are its root fields */
  component: { name: string; access: Readonly<Record<string, unknown>>; inputs?: FieldInputs };
  /** the code of a failure that is not the caller's: one for the module, or the one of each root field */
  internalErrorCode: string | ((rootField: string) => string);
  /** what an empty success `errors` is: null (kernel, the default) or [] (partner management) */
  emptyErrors?: null | [];
  /** the start of every envelope `id` of the module (`platform.masterdata.`) */
  idPrefix: string;
  /** the start of every path of the module (`/v1/masterdata`) */
  pathPrefix?: string;
}

/** The payload's single field, as a route reads it: the operation's one root field, its payload replaced by its result. */
type RootResult<Data> = PayloadResults<Data>[keyof Data];

/**
 * The variables a route passes when it declares none: its input as the operation's `$input` when that is the
 * operation's one variable (the payload convention), else its input as the variables themselves.
 */
type InputVariables<Input, Variables> = [keyof Variables] extends ['input'] ? { input: Input } : Input;

/** `variables` may be left out where the default fits the operation: the input as the variables, or no input and no variable required. */
type VariablesPart<Input, Variables> = [InputVariables<Input, Variables>] extends [Variables]
  ? { variables?: RestRoute<Input, unknown, Variables>['variables'] }
  : unknown extends Input
    ? Record<string, never> extends Variables
      ? { variables?: RestRoute<Input, unknown, Variables>['variables'] }
      : { variables: RestRoute<Input, unknown, Variables>['variables'] }
    : { variables: RestRoute<Input, unknown, Variables>['variables'] };

/** `result` may be left out where the operation's one root field (a payload's result) is the response as it stands. */
type ResultPart<Data, Response extends z.ZodType> = [RootResult<Data>] extends [z.input<Response>]
  ? { result?: RestRoute<unknown, PayloadResults<Data>, unknown, Response>['result'] }
  : { result: RestRoute<unknown, PayloadResults<Data>, unknown, Response>['result'] };

/**
 * One route as its module declares it: its own parts; the factory adds the rest. `Data` is what the operation
 * answers, payloads and all. The common shape is the default: no `input` is none, no `variables` passes the
 * input (as `$input` when that is the operation's one variable), no `result` answers the root field's value.
 */
export type RouteSpec<Input, Data, Variables, Response extends z.ZodType> = Omit<
  RestRoute<Input, PayloadResults<Data>, Variables, Response>,
  'id' | 'path' | 'operation' | 'rootFields' | 'emptyErrors' | 'codeFor' | 'internalErrorCode' | 'input' | 'variables' | 'result'
> & {
  /** after the module's pathPrefix */
  path: string;
  /** the envelope `id` after the module's idPrefix */
  idSuffix: string;
  /** where the input comes from; none by default */
  input?: RouteInput<Input>;
  /** the named operation it runs, as generated (npm run codegen) */
  operation: TypedDocumentNode<Data, Variables>;
  /** only where the spec gives this route other field codes than its component's inputs */
  codeFor?: RestRoute['codeFor'];
  /** only where the spec gives this route another internal code than its module's */
  internalErrorCode?: string;
} & VariablesPart<Input, Variables> &
  ResultPart<Data, Response>;

/** How a factory-made route came to be: what a test checks its codes against. */
export interface RouteOrigin {
  component: string;
  /** the root field of its operation, whose input codes it answers with */
  rootField: string;
  /** the parts the route declared itself instead of taking its module's */
  overrides: readonly ('codeFor' | 'internalErrorCode')[];
}

// Routes the factory made, with their origin: the registry's routes are all expected here.
const origins = new WeakMap<RestRoute, RouteOrigin>();

/** Where a route came from; undefined for a route not made by a route factory. */
export const routeOrigin = (route: RestRoute): RouteOrigin | undefined => origins.get(route);

/** The named operation of a document, found in its syntax tree (no second parse). */
function definitionOf(document: TypedDocumentNode<unknown, unknown>, name: string): OperationDefinitionNode {
  const definition = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && d.name?.value === name);
  if (!definition) throw new Error(`operation ${name} not found`);
  return definition;
}

/** "<Type>.<field>" of each root field an operation selects. */
function rootFieldsOf(definition: OperationDefinitionNode): string[] {
  const type = definition.operation === OperationTypeNode.MUTATION ? 'Mutation' : 'Query';
  return definition.selectionSet.selections.flatMap((selection) => (selection.kind === Kind.FIELD ? [`${type}.${selection.name.value}`] : []));
}

/** The route's variables when it declares none (see RouteSpec): nothing for no input, else its input, as `$input` when that is the one variable. */
function defaultVariables(input: RouteInput<unknown>, definition: OperationDefinitionNode): (input: unknown) => unknown {
  if (input.from === 'none') return () => ({});
  const [only, ...others] = definition.variableDefinitions ?? [];
  return only?.variable.name.value === 'input' && !others.length ? (value) => ({ input: value }) : (value) => value;
}

/**
 * The route maker of one REST module. A route names its operation; the
 * factory derives from the operation's root field the codes of bad fields
 * (the component's own input rules, as GraphQL answers them), and adds the
 * module's internal code, `errors` convention, id and path prefixes.
 */
export function routeFactory(module: RouteModule) {
  const { component, internalErrorCode, emptyErrors = null, idPrefix, pathPrefix = '' } = module;
  const inputs = component.inputs;
  if (!inputs) throw new Error(`component ${component.name} declares no inputs: its routes have no codes to take`);
  return <Input, Data, Variables, Response extends z.ZodType>(
    spec: RouteSpec<Input, Data, Variables, Response>,
  ): RestRoute<Input, PayloadResults<Data>, Variables, Response> => {
    const { idSuffix, path, operation: document, codeFor, internalErrorCode: ownInternal, input = { from: 'none' }, variables, result, ...own } = spec;
    const operation = namedOperation(document);
    const definition = definitionOf(document as TypedDocumentNode<unknown, unknown>, operation.name);
    const rootFields = rootFieldsOf(definition);
    const [qualified] = rootFields;
    const [root] = definition.selectionSet.selections;
    if (rootFields.length !== 1 || !qualified || root?.kind !== Kind.FIELD)
      throw new Error(`operation ${operation.name} must select one root field to take its codes from`);
    // A route runs its own component's fields: another's would answer with codes that are not its own.
    if (!(qualified in component.access)) throw new Error(`${qualified} (operation ${operation.name}) is not a field of component ${component.name}`);
    const rootField = qualified.slice(qualified.indexOf('.') + 1);
    const rootKey = (root.alias ?? root.name).value as keyof PayloadResults<Data>;
    const route: RestRoute<Input, PayloadResults<Data>, Variables, Response> = {
      ...own,
      path: pathPrefix + path,
      id: idPrefix + idSuffix,
      emptyErrors,
      input,
      operation,
      rootFields,
      // The type of RouteSpec lets a route leave these out only where the defaults fit its operation and response.
      variables: (variables ?? defaultVariables(input, definition)) as RestRoute<Input, PayloadResults<Data>, Variables, Response>['variables'],
      result: result ?? ((data) => data[rootKey] as z.input<Response>),
      codeFor: codeFor ?? ((field, missing) => inputs.codeFor(field, missing, rootField)),
      internalErrorCode: ownInternal ?? (typeof internalErrorCode === 'string' ? internalErrorCode : internalErrorCode(rootField)),
    };
    const overrides = [...(codeFor ? ['codeFor' as const] : []), ...(ownInternal ? ['internalErrorCode' as const] : [])];
    origins.set(route, { component: component.name, rootField, overrides });
    return route;
  };
}

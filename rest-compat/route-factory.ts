import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { Kind, OperationTypeNode, type OperationDefinitionNode } from 'graphql';
import type { z } from 'zod';
import type { FieldInputs } from '../lib/graph/inputs.js';
import { operation as namedOperation, type PayloadResults } from './operations.js';
import type { RestRoute } from './route.js';

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

/** One route as its module declares it: its own parts; the factory adds the rest. `Data` is what the operation answers, payloads and all. */
export interface RouteSpec<Input, Data, Variables, Response extends z.ZodType> extends Omit<
  RestRoute<Input, PayloadResults<Data>, Variables, Response>,
  'id' | 'path' | 'operation' | 'rootFields' | 'emptyErrors' | 'codeFor' | 'internalErrorCode'
> {
  /** after the module's pathPrefix */
  path: string;
  /** the envelope `id` after the module's idPrefix */
  idSuffix: string;
  /** the named operation it runs, as generated (npm run codegen) */
  operation: TypedDocumentNode<Data, Variables>;
  /** only where the spec gives this route other field codes than its component's inputs */
  codeFor?: RestRoute['codeFor'];
  /** only where the spec gives this route another internal code than its module's */
  internalErrorCode?: string;
}

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

/** "<Type>.<field>" of each root field the document's named operation selects, read from its syntax tree (no second parse). */
function rootFieldsOf(document: TypedDocumentNode<unknown, unknown>, name: string): string[] {
  const definition = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && d.name?.value === name);
  if (!definition) throw new Error(`operation ${name} not found`);
  const type = definition.operation === OperationTypeNode.MUTATION ? 'Mutation' : 'Query';
  return definition.selectionSet.selections.flatMap((selection) => (selection.kind === Kind.FIELD ? [`${type}.${selection.name.value}`] : []));
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
    const { idSuffix, path, operation: document, codeFor, internalErrorCode: ownInternal, ...own } = spec;
    const operation = namedOperation(document);
    const rootFields = rootFieldsOf(document as TypedDocumentNode<unknown, unknown>, operation.name);
    const [qualified] = rootFields;
    if (rootFields.length !== 1 || !qualified) throw new Error(`operation ${operation.name} must select one root field to take its codes from`);
    // A route runs its own component's fields: another's would answer with codes that are not its own.
    if (!(qualified in component.access)) throw new Error(`${qualified} (operation ${operation.name}) is not a field of component ${component.name}`);
    const rootField = qualified.slice(qualified.indexOf('.') + 1);
    const route: RestRoute<Input, PayloadResults<Data>, Variables, Response> = {
      ...own,
      path: pathPrefix + path,
      id: idPrefix + idSuffix,
      emptyErrors,
      operation,
      rootFields,
      codeFor: codeFor ?? ((field, missing) => inputs.codeFor(field, missing, rootField)),
      internalErrorCode: ownInternal ?? (typeof internalErrorCode === 'string' ? internalErrorCode : internalErrorCode(rootField)),
    };
    const overrides = [...(codeFor ? ['codeFor' as const] : []), ...(ownInternal ? ['internalErrorCode' as const] : [])];
    origins.set(route, { component: component.name, rootField, overrides });
    return route;
  };
}

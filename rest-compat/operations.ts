import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { Kind, print, type FieldNode, type OperationDefinitionNode } from 'graphql';

/**
 * A named operation of a component's operations.graphql, as its generated
 * typed document (npm run codegen): the types of its variables and result
 * come from the SDL. The text is printed once and sent unchanged, because
 * query plans and parsed documents are cached by exact text.
 */
export interface Operation<Data = unknown, Variables = Record<string, unknown>> {
  name: string;
  query: string;
  /**
   * The result keys of the mutations it runs in the payload convention (they
   * select `result` and `userErrors`): the handler answers their user errors
   * as the REST errors and hands the route each result in the payload's place.
   */
  payloads: readonly string[];
  /** types only: the result and variables of the document */
  readonly types?: { data: Data; variables: Variables };
}

/** An operation's result as a route reads it: each mutation payload replaced by its result. */
export type PayloadResults<Data> = {
  [K in keyof Data]: Data[K] extends { userErrors: unknown; result?: infer Result } ? NonNullable<Result> : Data[K];
};

const selects = (field: FieldNode, name: string) => field.selectionSet?.selections.some((s) => s.kind === Kind.FIELD && (s.alias ?? s.name).value === name);

export function operation<Data, Variables>(document: TypedDocumentNode<Data, Variables>): Operation<PayloadResults<Data>, Variables> {
  const definition = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!definition?.name) throw new Error('a REST operation must be a named query or mutation');
  const payloads = definition.selectionSet.selections.flatMap((selection) =>
    selection.kind === Kind.FIELD && selects(selection, 'userErrors') && selects(selection, 'result') ? [(selection.alias ?? selection.name).value] : [],
  );
  return { name: definition.name.value, query: print(document), payloads };
}

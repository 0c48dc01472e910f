import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { Kind, print, type OperationDefinitionNode } from 'graphql';

/**
 * A named operation of a component's operations.graphql, as its generated
 * typed document (npm run codegen): the types of its variables and result
 * come from the SDL. The text is printed once and sent unchanged, because
 * query plans and parsed documents are cached by exact text.
 */
export interface Operation<Data = unknown, Variables = Record<string, unknown>> {
  name: string;
  query: string;
  /** types only: the result and variables of the document */
  readonly types?: { data: Data; variables: Variables };
}

export function operation<Data, Variables>(document: TypedDocumentNode<Data, Variables>): Operation<Data, Variables> {
  const definition = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!definition?.name) throw new Error('a REST operation must be a named query or mutation');
  return { name: definition.name.value, query: print(document) };
}

import { GraphQLError } from 'graphql';

/**
 * A failure with a code from the spec's catalogue. Subgraphs throw it; GraphQL
 * carries the code in `extensions.code`; the REST layer turns it into
 * `errors: [{errorCode, message}]`.
 */
export class PlatformError extends Error {
  readonly code: string;
  /**
   * GraphQLError copies `extensions` from its original error; the mark lets
   * the gateway tell a catalogue error from anything else after the error
   * has crossed a subgraph boundary (where the original object is gone).
   */
  readonly extensions: { code: string; catalogue: true };
  /** the path of the argument at fault, when the refusal is about one (a mutation's user error names it) */
  readonly field: readonly string[] | undefined;

  constructor(code: string, message: string, options: { field?: readonly string[] } = {}) {
    super(message);
    this.name = 'PlatformError';
    this.code = code;
    this.extensions = { code, catalogue: true };
    this.field = options.field;
  }
}

/** The code GraphQL uses for a failure that is not the caller's fault; its details stay in the log. */
export const INTERNAL_ERROR = 'INTERNAL_SERVER_ERROR';

/** GraphQL's own request errors: their messages describe the caller's query, never the server. */
const GRAPHQL_REQUEST_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'PERSISTED_QUERY_NOT_FOUND',
  'OPERATION_RESOLUTION_FAILURE',
  'BAD_REQUEST',
]);

/**
 * Catalogue errors and GraphQL's request errors reach the caller as they
 * are; anything else (database, programming errors) is replaced by a bare
 * internal error, so no stack trace or SQL text reaches a caller.
 */
export function isCallerVisible(error: { extensions?: Record<string, unknown>; originalError?: unknown }): boolean {
  if (error.originalError instanceof PlatformError || error.extensions?.catalogue === true) return true;
  const code = error.extensions?.code;
  return typeof code === 'string' && GRAPHQL_REQUEST_CODES.has(code);
}

export function maskedError(): GraphQLError {
  return new GraphQLError('Internal server error', { extensions: { code: INTERNAL_ERROR } });
}

import { GraphQLError } from 'graphql';

/**
 * A failure with a code from the spec's catalogue. Subgraphs throw it; GraphQL
 * carries the code in `extensions.code`; the REST layer turns it into
 * `errors: [{errorCode, message}]`.
 */
export class PlatformError extends Error {
  readonly code: string;
  /** GraphQLError copies `extensions` from its original error. */
  readonly extensions: { code: string };

  constructor(code: string, message: string) {
    super(message);
    this.name = 'PlatformError';
    this.code = code;
    this.extensions = { code };
  }
}

/** The code GraphQL uses for a failure that is not the caller's fault; its details stay in the log. */
export const INTERNAL_ERROR = 'INTERNAL_SERVER_ERROR';

const GRAPHQL_REQUEST_CODES = new Set(['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT', 'PERSISTED_QUERY_NOT_FOUND', 'OPERATION_RESOLUTION_FAILURE', 'BAD_REQUEST']);

/**
 * Keeps catalogue errors and GraphQL's own request errors as they are and
 * replaces anything else (database, programming errors) by a bare internal
 * error, so no stack trace or SQL text reaches a caller.
 */
export function isCallerVisible(error: { extensions?: Record<string, unknown>; originalError?: unknown }): boolean {
  if (error.originalError instanceof PlatformError) return true;
  const code = error.extensions?.code;
  if (typeof code !== 'string') return error.originalError === undefined; // graphql-js validation errors carry no original error
  if (code === INTERNAL_ERROR) return false;
  return GRAPHQL_REQUEST_CODES.has(code) || /^[A-Z0-9_]+[-_][A-Z0-9_-]+$|^\d{3}$/.test(code);
}

export function maskedError(): GraphQLError {
  return new GraphQLError('Internal server error', { extensions: { code: INTERNAL_ERROR } });
}

import { formatTimestamp } from '../lib/time.js';

export interface ErrorItem {
  errorCode: string;
  message: string;
}

export type VersionKey = 'version' | 'ver';

/** What a response envelope is built from. */
export type EnvelopeOptions = { id: string | null; version: string | null; versionKey?: VersionKey; now: Date };
export type EnvelopeBody = { response: unknown; errors?: ErrorItem[] | null; emptyErrors?: null | [] };

/**
 * A response envelope of the spec's variants (the ID repository's
 * authentication-type call: `responseTime`, errors with `errorMessage` and
 * `actionMessage`): built from the same parts as the standard one, and its
 * JSON schema for the OpenAPI document given the `response` member's.
 */
export interface EnvelopeFormat {
  build: (options: EnvelopeOptions, body: EnvelopeBody) => Record<string, unknown>;
  schema: (response: Record<string, unknown>) => Record<string, unknown>;
}

/** The spec's response envelope; `response` is null whenever `errors` is filled. */
export function envelope(options: EnvelopeOptions, body: EnvelopeBody): Record<string, unknown> {
  const failed = Boolean(body.errors?.length);
  return {
    id: options.id,
    [options.versionKey ?? 'version']: options.version,
    responsetime: formatTimestamp(options.now),
    metadata: null,
    response: failed ? null : body.response,
    errors: failed ? body.errors : (body.emptyErrors ?? null),
  };
}

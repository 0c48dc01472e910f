import { formatTimestamp } from '../lib/time.js';

export interface ErrorItem {
  errorCode: string;
  message: string;
}

export type VersionKey = 'version' | 'ver';

/** The spec's response envelope; `response` is null whenever `errors` is filled. */
export function envelope(
  options: { id: string | null; version: string | null; versionKey?: VersionKey; now: Date },
  body: { response: unknown; errors?: ErrorItem[] | null; emptyErrors?: null | [] },
): Record<string, unknown> {
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

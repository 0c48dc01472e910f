import { formatTimestamp } from '../../lib/time.js';
import type { EnvelopeFormat } from '../envelope.js';

/**
 * The registration processor's per-record envelope (sync, status search):
 * the records that succeeded in `response` and those that failed in
 * `errors`, both in one answer. The route's result is {response, errors};
 * a whole-call failure is the standard {errorCode, message} item with
 * `response` null.
 */
export const perRecordEnvelope: EnvelopeFormat = {
  build: (options, body) => {
    const whole = body.errors?.length ? body.errors : null;
    const records = whole ? undefined : (body.response as { response: unknown[]; errors: unknown[] });
    return {
      id: options.id,
      version: options.version,
      responsetime: formatTimestamp(options.now),
      response: records ? records.response : null,
      errors: whole ?? (records?.errors.length ? records.errors : null),
    };
  },
  schema: (records) => {
    const parts = (records as { properties?: { response?: unknown; errors?: unknown } }).properties ?? {};
    return {
      type: 'object',
      properties: {
        id: { type: ['string', 'null'] },
        version: { type: ['string', 'null'] },
        responsetime: { type: 'string', description: "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'" },
        response: { anyOf: [parts.response ?? {}, { type: 'null' }] },
        errors: { anyOf: [parts.errors ?? {}, { type: 'null' }] },
      },
      required: ['id', 'version', 'responsetime', 'response', 'errors'],
    };
  },
};

import { z } from 'zod';
import { instantText } from '../../../lib/input.js';
import { parseInstant } from '../../../lib/time.js';
import { connectionPage, pagedListInput } from '../paged.js';

const text = z.string().trim().min(1).max(1024);
const draft = z.object({
  title: text,
  description: text,
  effectiveFrom: instantText(z.string().max(64)),
  schemaVersion: z.number().nonnegative(),
  schema: z.unknown(),
});
const id = z.string().min(1).max(64);

/** A schema's effectiveFrom, checked first by every write (and by REST before it sends one): `error` when it is not an instant. */
export function effectiveFromOf(text: string, error: (why: string) => Error): Date {
  const effectiveFrom = parseInstant(text);
  if (!effectiveFrom) throw error("effectiveFrom must be an ISO 8601 timestamp (yyyy-MM-dd'T'HH:mm:ss.SSS'Z')");
  return effectiveFrom;
}

/** The arguments of the ID schema's root fields, for GraphQL and REST alike. */
export const idschemaSchemas = {
  createIdSchema: draft,
  updateIdSchema: draft.extend({ id }),
  deleteIdSchema: z.object({ id }),
  publishIdSchema: z.object({ id, effectiveFrom: instantText(z.string().max(64)) }),
  idSchemaPage: pagedListInput,
  latestIdSchema: z.object({ schemaVersion: z.coerce.number().nonnegative().nullish() }),
  idSchemas: z.object({ ...connectionPage, filter: z.object({ status: z.enum(['DRAFT', 'PUBLISHED']).nullish() }).nullish() }),
};

/** A missing draft field is an insert error, a bad one on update an update error, anything else a fetch error (MOSIP's codes). */
export const idschemaCodeFor = (_field: string, _missing: boolean, rootField: string): string =>
  rootField === 'createIdSchema'
    ? 'KER-SCH-005'
    : rootField.startsWith('update') || rootField.startsWith('publish') || rootField.startsWith('delete')
      ? 'KER-SCH-006'
      : 'KER-SCH-004';

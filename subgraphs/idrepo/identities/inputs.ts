import { z } from 'zod';
import { identifier } from '../../../lib/input.js';
import { IDENTITY_STATUSES, READ_TYPES } from './types.js';

const id = identifier(64).pipe(z.string().trim().min(1));
/** Registration ids as MOSIP makes them are 29 digits; other forms up to 64 letters, digits, - or _. */
const registrationId = identifier(64).pipe(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, - or _'));
/** The identity object: checked field by field against the ID schema by the service. */
const identity = z.record(z.string(), z.unknown()).refine((value) => JSON.stringify(value).length <= 1_000_000, { message: 'at most 1 MB' });
/** Documents and biometric records, base64; the request body limit bounds the whole. */
const documents = z.array(z.object({ category: identifier(128).pipe(z.string().min(1)), value: z.string().min(1) })).max(64);
const readType = z
  .string()
  .transform((value) => value.toLowerCase())
  .pipe(z.enum(READ_TYPES))
  .nullish();
const stored = { registrationId, biometricReferenceId: identifier(64).nullish(), identity, documents: documents.nullish() };

/** The arguments of the identity root fields, for GraphQL and REST alike. */
export const identitiesSchemas = {
  createIdentity: z.object(stored),
  updateIdentity: z.object({ ...stored, status: z.string().pipe(z.enum(IDENTITY_STATUSES)).nullish() }),
  identityByUin: z.object({ uin: id, type: readType }),
  identityByRid: z.object({ rid: id, type: readType }),
  // `by` (a OneOf input) or the deprecated arguments: one look-up either way.
  identity: z
    .object({
      uin: id.nullish(),
      rid: id.nullish(),
      vid: id.nullish(),
      by: z.object({ uin: id.nullish(), rid: id.nullish(), vid: id.nullish() }).nullish(),
    })
    .transform(({ by, ...given }) => by ?? given)
    .refine((by) => [by.uin, by.rid, by.vid].filter(Boolean).length === 1, { message: 'give exactly one of uin, rid and vid', path: ['uin'] }),
};

import { z } from 'zod';
import { identifier } from '../../../lib/input.js';
import { access } from '../../../lib/roles.js';
import { defineArea } from '../area.js';
import { idrepoCodeFor } from '../errors.js';
import { identitiesResolvers } from './resolvers.js';
import { IDENTITY_STATUSES, READ_TYPES } from './service.js';

const { roles } = access;
/** Who reads identities: ID authentication, and the processor for updates; ID_REPOSITORY are the repository's own operators. */
const READERS = roles('ID_AUTHENTICATION', 'REGISTRATION_PROCESSOR', 'ID_REPOSITORY');

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
  identity: z
    .object({ uin: id.nullish(), rid: id.nullish(), vid: id.nullish() })
    .refine((by) => [by.uin, by.rid, by.vid].filter(Boolean).length === 1, { message: 'give exactly one of uin, rid and vid', path: ['uin'] }),
};

/** Identities: the processor writes, ID authentication reads (MOSIP's roles); admins see status and audit trail. */
export const identitiesArea = defineArea({
  name: 'identities',
  access: {
    'Mutation.createIdentity': roles('REGISTRATION_PROCESSOR'),
    'Mutation.updateIdentity': roles('REGISTRATION_PROCESSOR'),
    'Query.identityByUin': READERS,
    'Query.identityByRid': READERS,
    'Query.identity': roles('GLOBAL_ADMIN', 'ID_REPOSITORY'),
    'Identity.__resolveReference': roles('GLOBAL_ADMIN', 'ID_REPOSITORY', 'REGISTRATION_PROCESSOR'),
    // the attributes only for the repository's operators, each read audited
    'Identity.demographics': roles('ID_REPOSITORY'),
    'Identity.reads': roles('GLOBAL_ADMIN', 'ID_REPOSITORY'),
  },
  schemas: identitiesSchemas,
  codeFor: idrepoCodeFor,
  services: () => ({}),
  resolvers: (deps) => identitiesResolvers(deps),
});

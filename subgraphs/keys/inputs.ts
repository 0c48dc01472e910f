import { z } from 'zod';
import { fieldInputs } from '../../lib/graph/inputs.js';
import { identifier, instantText, pageArguments } from '../../lib/input.js';
import { instantOr } from '../../lib/time.js';
import { keyErrors } from './errors.js';

const text = identifier();
const optional = text.nullish();

/** REST's CSR and master key requests carry every subject field, flat. */
export const subjectFields = { commonName: text, country: text, state: text, location: text, organization: text, organizationUnit: text };
const graphSubject = z.object({ commonName: text, country: optional, state: optional, location: optional, organization: optional, organizationUnit: optional });

const pair = { applicationId: text, referenceId: optional };
const upload = z.object({ ...pair, certificateData: z.string().max(65536) });
const crypto = z.object({
  ...pair,
  data: z.string(),
  aad: z.string().max(4096).nullish(),
  salt: z.string().max(1024).nullish(),
  timeStamp: instantText(z.string().max(64)).nullish(),
});
const machine = z.object({ machineName: text, publicKey: z.string().max(8192) });
/** Machine keys are keyed by names of up to 256 UTF-16 units (768 bytes of UTF-8): cursors (base64url) of up to 1,024 characters. */
const page = pageArguments(1024);
const keyFilter = z.object({
  applicationId: optional,
  // the empty string selects master keys
  referenceId: optional,
  kind: z.enum(['ROOT', 'MASTER', 'BASE', 'OTHER_DOMAIN']).nullish(),
  status: z.enum(['ACTIVE', 'RETIRED', 'EXPIRED']).nullish(),
});

/** A timestamp the key manager and crypto manager take: an ISO 8601 instant (KER-CRY-007 otherwise); REST runs it on the wire's text too. */
export const keyTime = (timeStamp: string): Date => instantOr(timeStamp, keyErrors.badTimestamp);

/** The crypto manager's first checks, in their order, before its timestamp's: an application id, then data (KER-CRY-004). */
export function cryptoPrerequisites<T extends { applicationId?: string | null; data?: string | null }>(
  input: T,
): asserts input is T & { applicationId: string; data: string } {
  if (!input.applicationId?.trim()) throw keyErrors.emptyInput('applicationId');
  if (!input.data) throw keyErrors.emptyInput('data');
}

const CRYPTO_FIELDS = new Set(['encrypt', 'decrypt']);
const MACHINE_FIELDS = new Set(['uploadMachinePublicKey', 'verifyMachinePublicKey']);
const SIGNATURE_FIELDS = new Set(['sign', 'validateSignature']);

function keysCodeFor(field: string, missing: boolean, rootField: string): string {
  if (CRYPTO_FIELDS.has(rootField)) return field === 'timeStamp' ? 'KER-CRY-007' : missing ? 'KER-CRY-004' : 'KER-CRY-003';
  if (MACHINE_FIELDS.has(rootField)) return missing ? 'KER-CRY-004' : 'KER-CRY-002';
  if (SIGNATURE_FIELDS.has(rootField)) return 'KER-CSS-999';
  if (rootField === 'syncPublicKey') return field === 'timeStamp' && !missing ? 'KER-CRY-007' : 'KER-KMS-005';
  // Key manager: a missing parameter is MOSIP's KER-KMS-005, anything else malformed KER-KMS-013.
  return missing ? 'KER-KMS-005' : 'KER-KMS-013';
}

/** The arguments of the key, crypto and signature root fields, for GraphQL and REST alike. */
export const keysInputs = fieldInputs(
  {
    certificate: z.object(pair),
    syncPublicKey: z.object({ ...pair, timeStamp: instantText(z.string().max(64)) }),
    generateMasterKey: z.object({ ...pair, objectType: text, force: z.boolean(), subject: graphSubject.nullish() }),
    generateCsr: z.object({ ...pair, subject: graphSubject }),
    uploadCertificate: upload,
    uploadOtherDomainCertificate: upload,
    encrypt: crypto,
    decrypt: crypto,
    sign: z.object({ data: z.string() }),
    validateSignature: z.object({ signature: z.string(), data: z.string().nullish() }),
    uploadMachinePublicKey: machine,
    verifyMachinePublicKey: machine,
    keys: z.object({ ...page, filter: keyFilter.nullish() }),
    key: z.object({ id: text }),
    machineKeys: z.object(page),
  },
  keysCodeFor,
);

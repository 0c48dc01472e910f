import { z } from 'zod';
import { identifier } from '../../../lib/input.js';
import { preRegistrationId } from '../applications/inputs.js';
import { preregCodeFor } from '../errors.js';

const code = (max: number) => identifier(max).pipe(z.string().trim().min(1));
const documentId = code(64);
const docCatCode = code(36);
const docTypCode = code(36);
const langCode = code(3);
const refNumber = identifier(64).nullish();

/**
 * The largest document a GraphQL caller sends as base64: the configuration's
 * ceiling for documentMaxBytes (64 MiB) in base64; the configured size itself
 * is the service's rule (PRG_PAM_DOC_007), as for REST.
 */
const MAX_BASE64 = Math.ceil((64 * 1024 * 1024) / 3) * 4;

export const documentsSchemas = {
  preRegistrationDocuments: z.object({ preRegistrationId }),
  preRegistrationDocumentContent: z.object({ preRegistrationId, documentId }),
  uploadPreRegistrationDocument: z.object({
    preRegistrationId,
    docCatCode,
    docTypCode,
    langCode,
    refNumber,
    // the name the applicant's file has: shown back to them, never part of a key or path
    fileName: identifier(255).nullish(),
    content: z
      .string()
      .max(MAX_BASE64)
      .regex(/^[A-Za-z0-9+/=\s]*$/, 'base64')
      .nullish(),
    stagedUploadId: identifier(64).nullish(),
  }),
  deletePreRegistrationDocument: z.object({ preRegistrationId, documentId }),
  deletePreRegistrationDocuments: z.object({ preRegistrationId }),
  copyPreRegistrationDocument: z.object({ preRegistrationId, sourcePreRegistrationId: preRegistrationId, docCatCode }),
  updatePreRegistrationDocumentReference: z.object({ preRegistrationId, documentId, refNumber: code(64) }),
};

/** What a malformed argument is, by its name; a missing one is PRG_CORE_REQ_001 (the envelope's own fields keep their codes). */
const MALFORMED: Readonly<Record<string, string>> = {
  preRegistrationId: 'PRG_PAM_DOC_018',
  sourcePreRegistrationId: 'PRG_PAM_DOC_018',
  documentId: 'PRG_PAM_DOC_019',
  docCatCode: 'PRG_CORE_REQ_018',
  docTypCode: 'PRG_CORE_REQ_017',
  langCode: 'PRG_CORE_REQ_014',
};

/** A document argument's code: MOSIP's per field where it has one (a copy's category: PRG_CORE_REQ_017, only POA), the request codes otherwise. */
export function documentsCodeFor(field: string, missing: boolean, rootField: string): string {
  const [head = ''] = field.split('.');
  const malformed = rootField === 'copyPreRegistrationDocument' && head === 'docCatCode' ? 'PRG_CORE_REQ_017' : MALFORMED[head];
  if (malformed) return missing ? 'PRG_CORE_REQ_001' : malformed;
  return preregCodeFor(field, missing);
}

import { z } from 'zod';
import { identifier, MAX_JSON_DEPTH, nestsDeeperThan } from '../../../lib/input.js';
import { preregCodeFor } from '../errors.js';

/** A pre-registration id: digits as the PRID rules make them (an unknown one is PRG_PAM_APP_005 from the service). */
export const preRegistrationId = identifier(64).pipe(z.string().trim().min(1));
const langCode = identifier(3).pipe(z.string().trim().min(1));
/** The identity object: the service checks its fields against the ID schema. */
const identity = z
  .record(z.string().max(64), z.unknown())
  .refine((value) => !nestsDeeperThan(value, MAX_JSON_DEPTH), { message: `nests deeper than ${MAX_JSON_DEPTH} levels` })
  .refine((value) => Object.keys(value).length <= 100, { message: 'at most 100 fields' });

export const applicationsSchemas = {
  preRegistration: z.object({ preRegistrationId }),
  preRegistrationPage: z.object({ pageIndex: z.number().int().min(0).max(1_000_000).nullish() }),
  createPreRegistration: z.object({ langCode, identity }),
  updatePreRegistration: z.object({ preRegistrationId, langCode, identity }),
  deletePreRegistration: z.object({ preRegistrationId }),
  updatePreRegistrationStatus: z.object({ preRegistrationId, statusCode: identifier(32).pipe(z.string().trim().min(1)) }),
};

/** An id missing or malformed is PRG_PAM_APP_005 (no such application), a language PRG_CORE_REQ_014, the identity KER-IOV-005/004, a page PRG_PAM_APP_016. */
export function applicationsCodeFor(field: string, missing: boolean): string {
  const [head] = field.split('.');
  if (head === 'preRegistrationId' || head === 'statusCode') return 'PRG_PAM_APP_005';
  if (head === 'langCode') return 'PRG_CORE_REQ_014';
  if (head === 'identity' || head === 'demographicDetails') return missing ? 'KER-IOV-005' : 'KER-IOV-004';
  if (head === 'pageIndex') return 'PRG_PAM_APP_016';
  return preregCodeFor(field, missing);
}

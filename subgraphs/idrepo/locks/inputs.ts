import { z } from 'zod';
import { identifier, instantText } from '../../../lib/input.js';
import { parseInstant } from '../../../lib/time.js';
import { BIO_SUBTYPES, lockKey } from './service.js';

/** A UIN or VID: digits as the number rules check them (IDA-MLC-002 or 009 from the service). */
const individualId = identifier(64).pipe(z.string().trim().min(1));
const individualIdType = identifier(16).nullish();
/** As MOSIP's clients send it: ISO 8601 with milliseconds and a zone (`Z` or `+05:30`); the REST body's rule (the graph takes a DateTime). */
export const requestTime = identifier(64).refine((value) => parseInstant(value) !== undefined, {
  message: "an ISO 8601 date and time (yyyy-MM-dd'T'HH:mm:ss.SSSXXX)",
});
/** The REST body's requestTime read as the instant the graph takes (the rule above has refused what parseInstant cannot read). */
export const requestInstant = requestTime.transform((value) => parseInstant(value) as Date);
const authTypeChange = z.object({
  authType: identifier(16),
  authSubType: identifier(16).nullish(),
  isLocked: z.boolean(),
});
/** The changes: each names a lockable type (otp, demo, bio, bio with Finger, Iris or Face) once. */
export const authTypes = z
  .array(authTypeChange)
  .min(1)
  .max(16)
  .superRefine((changes, context) => {
    const seen = new Set<string>();
    changes.forEach((change, index) => {
      const key = lockKey(change.authType, change.authSubType);
      if (!key) context.addIssue({ code: 'custom', path: [index], message: 'authType otp, demo or bio; authSubType Finger, Iris or Face, for bio only' });
      else if (seen.has(key)) context.addIssue({ code: 'custom', path: [index], message: `${key} is listed twice` });
      if (key) seen.add(key);
    });
  });

/** The arguments of the lock root fields, for GraphQL and REST alike. */
export const locksSchemas = {
  updateAuthTypeStatus: z.object({
    requestTime: instantText(requestTime).nullish(),
    consentObtained: z.boolean(),
    individualId,
    individualIdType,
    authTypes,
  }),
  authTypeStatus: z.object({ individualId, individualIdType }),
};

/**
 * The graph's enums (OTP, FINGER) beside MOSIP's spellings (otp, Finger), which
 * the rows keep and REST answers with; the service reads either, in any case.
 */
export const graphAuthType = (spelled: string) => spelled.toUpperCase() as 'OTP' | 'DEMO' | 'BIO';
export const graphModality = (spelled: string) => spelled.toUpperCase() as 'FINGER' | 'IRIS' | 'FACE';

/** A change as REST's body gives it (any case, already checked: IDA-MLC-009), as the graph takes it. */
export const graphLockChange = <T extends { authType: string; authSubType?: string | null }>(change: T) => ({
  ...change,
  authType: graphAuthType(change.authType.trim()),
  authSubType: change.authSubType?.trim() ? graphModality(change.authSubType.trim()) : null,
});

/** A state as the graph answers it, spelled as MOSIP answers it. */
export const spelledState = <T extends { authType: string; authSubType: string | null }>(state: T) => ({
  ...state,
  authType: state.authType.toLowerCase(),
  authSubType: state.authSubType ? (BIO_SUBTYPES.find((known) => known.toUpperCase() === state.authSubType) ?? state.authSubType) : null,
});

import { z } from 'zod';
import { identifier } from '../../../lib/input.js';
import { preregCodeFor } from '../errors.js';

// Empty values pass the rules: the service answers them with the spec's own codes (PRG_PAM_LGN_008, KER-ATH-003, KER-OTV-003).
const userId = identifier(254).transform((value) => value.trim());
const otp = identifier(16).transform((value) => value.trim());

export const loginSchemas = {
  sendPreRegistrationOtp: z.object({ userId }),
  loginPreRegistration: z.object({ userId, otp }),
};

/** A user id the rules refuse is an invalid user (PRG_PAM_LGN_008 when sending, KER-ATH-003 when validating); an OTP, KER-OTV-003. */
export function loginCodeFor(field: string, missing: boolean, rootField: string): string {
  if (field === 'userId') return rootField === 'sendPreRegistrationOtp' ? 'PRG_PAM_LGN_008' : 'KER-ATH-003';
  if (field === 'otp') return 'KER-OTV-003';
  return preregCodeFor(field, missing);
}

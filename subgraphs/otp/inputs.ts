import { z } from 'zod';
import { fieldInputs } from '../../lib/graph/inputs.js';
import { identifier } from '../../lib/input.js';

function otpCodeFor(field: string, missing: boolean, rootField: string): string {
  if (rootField === 'generateOtp') return 'KER-OTG-001';
  if (field === 'otp') return missing ? 'KER-OTV-003' : 'KER-OTV-004';
  return missing ? 'KER-OTV-001' : 'KER-OTV-002';
}

/** The arguments of the OTP manager's root fields, for GraphQL and REST alike. */
export const otpInputs = fieldInputs(
  {
    generateOtp: z.object({ key: identifier() }),
    validateOtp: z.object({ key: identifier(), otp: z.string().max(64) }),
  },
  otpCodeFor,
);

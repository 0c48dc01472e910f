import { PlatformError } from '../../lib/errors.js';

/** The OTP manager's codes (MOSIP's kernel-otpmanager). */
export const otpErrors = {
  badGenerateKey: (min: number, max: number) => new PlatformError('KER-OTG-001', `Length of key should be in the range of ${min}-${max}`),
  emptyKey: () => new PlatformError('KER-OTV-001', "Key can't be empty or null"),
  badKeyLength: (min: number, max: number) => new PlatformError('KER-OTV-002', `Length of key should be in the range of ${min}-${max}`),
  emptyOtp: () => new PlatformError('KER-OTV-003', "OTP can't be empty or null"),
  nonNumericOtp: () => new PlatformError('KER-OTV-004', 'OTP must be numeric only'),
  notGenerated: () => new PlatformError('KER-OTV-005', "Validation can't be performed against this key. Generate OTP first."),
};

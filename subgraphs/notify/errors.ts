import { PlatformError } from '../../lib/errors.js';

/** SMS codes of the spec; e-mail codes as MOSIP's mail notifier. */
export const notifyErrors = {
  smsMissing: () => new PlatformError('KER-NOS-001', "Number and message can't be empty or null"),
  smsBadNumber: (length: number) => new PlatformError('KER-NOS-002', `Contact number must be ${length} digits, without letters or special characters`),
  mailToMissing: () => new PlatformError('KER-NOE-001', "Mail-To address can't be empty or null"),
  subjectMissing: () => new PlatformError('KER-NOE-002', "Mail-Subject can't be empty or null"),
  badAddress: (address: string) => new PlatformError('KER-NOE-006', `Invalid e-mail address: ${address}`),
  attachment: (reason: string) => new PlatformError('KER-NOE-007', `Invalid attachment: ${reason}`),
  templateInput: (reason: string) => new PlatformError('KER-NOE-008', `Invalid template: ${reason}`),
};

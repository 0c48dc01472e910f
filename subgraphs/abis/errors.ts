import { PlatformError } from '../../lib/errors.js';

/** The data share's codes and messages (MOSIP data-share, ABIS.md (c)): answered with HTTP 200 and the envelope. */
export const DAT = {
  missing: 'DAT-SER-003',
  expired: 'DAT-SER-006',
  invalid: 'DAT-SER-001',
  internal: 'DAT-SER-002',
} as const;

export const abisErrors = {
  notFound: () => new PlatformError(DAT.expired, 'Data share not found'),
  expired: () => new PlatformError(DAT.expired, 'Data share usage expired'),
  noFile: () => new PlatformError(DAT.missing, 'File does not exists or unable to read the file'),
  /** a registration's ABIS requests beyond what its list answers (the registration processor's internal code): page through abisRequests instead */
  requestsTooMany: (cap: number) =>
    new PlatformError(
      'RPR-SYS-001',
      `Unexpected exception: more than ${cap} ABIS requests for the registration, more than one answer holds; page through abisRequests(filter: {registrationId})`,
    ),
};

/** A missing or malformed argument of a data share call. */
export const abisCodeFor = (): string => DAT.invalid;

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
};

/** A missing or malformed argument of a data share call. */
export const abisCodeFor = (): string => DAT.invalid;

import { PlatformError } from '../../lib/errors.js';

/**
 * The registration processor's codes (spec Document 1, RPR-*), with MOSIP's
 * messages. Whole-call failures are thrown; per-record ones (sync, status
 * search) are items of the answer, built from the same table.
 */
export const RPR = {
  /** the sync request cannot be decrypted (no key of the centre's machine or of REGISTRATION matches, or it is not intact) */
  decryption: 'RPR-RGS-001',
  invalidRidTimestamp: 'RPR-RGS-007',
  ridLength: 'RPR-RGS-009',
  parentRidLength: 'RPR-RGS-012',
  /**
   * Any other bad value: a missing or malformed argument or record field, a
   * Center-Machine-RefId whose centre or machine is unknown, inactive or not
   * together (MOSIP's sync validation uses RPR-RGS-* for these), a RID
   * already synced by another centre or machine.
   */
  invalidValue: 'RPR-RGS-015',
  ridNotFound: 'RPR-RGS-031',
  /**
   * No transaction for the RID (or the RID unknown to the caller): MOSIP's
   * transaction search answers RPR-RTS-001 for a RID it cannot find, and a
   * synced RID has none until the packet receiver writes the first.
   */
  noTransaction: 'RPR-RTS-001',
  /** the platform's own failure (MOSIP's RPR_SYS_UNEXCEPTED_EXCEPTION, "Unexpected exception") */
  internal: 'RPR-SYS-001',
} as const;

export const regprocErrors = {
  decryption: (why: string) => new PlatformError(RPR.decryption, `Decryption failed: ${why}`),
  invalid: (what: string) => new PlatformError(RPR.invalidValue, `Invalid request value, input data incorrect: ${what}`),
  /**
   * An officer or supervisor syncing for a centre that is not theirs: the
   * platform's forbidden code, as master data answers for another centre
   * (KER-ATH-403), so the role table and the scope refuse alike.
   */
  notYourCentre: (centreId: string) => new PlatformError('KER-ATH-403', `Forbidden: registration centre ${centreId} is not the caller's centre`),
  noTransaction: (rid: string) => new PlatformError(RPR.noTransaction, `No transaction found for registration id ${rid}`),
  /** a whole list longer than the bound its field declares: refused, never cut short; `connection` is where the portal pages instead */
  listTooLong: (what: string, cap: number, connection?: string) =>
    new PlatformError(
      RPR.internal,
      `Unexpected exception: more than ${cap} ${what}, more than one answer holds${connection ? `; page through the graph's ${connection}` : ''}`,
    ),
};

/** Every missing or malformed argument is RPR-RGS-015 (the spec lists no other input code for these calls). */
export const regprocCodeFor = (_field: string, _missing: boolean): string => RPR.invalidValue;

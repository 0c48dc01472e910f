import { PlatformError } from '../../lib/errors.js';

/** Sync data's codes: MOSIP's kernel-syncdata-service MasterDataErrorCode. */
export const syncdataErrors = {
  badLastUpdated: () =>
    new PlatformError('KER-SNC-100', "Error occurred while parsing lastUpdated timesatamp: lastupdated must be ISO 8601 (yyyy-MM-dd'T'HH:mm:ss.SSS'Z')"),
  futureLastUpdated: () => new PlatformError('KER-SNC-135', 'Timestamp cannot be future date'),
  centreNotFound: (id?: string) => new PlatformError('KER-SNC-141', id ? `Registration center not found: ${id}` : 'Registration center not found'),
  centreChanged: () => new PlatformError('KER-SNC-149', 'Registration Center has been updated for the received Machine ID'),
  machineNotFound: () => new PlatformError('KER-SNC-155', 'Machine not found'),
  /** MOSIP looks machines up among the active ones: an inactive machine is "not found", with the reason here. */
  machineInactive: () => new PlatformError('KER-SNC-155', 'Machine not found: the machine is inactive'),
  badInput: (why: string) => new PlatformError('KER-SNC-999', `Request Data not valid: ${why}`),
  /** a whole list longer than the bound its field declares: refused, never cut short */
  listTooLong: (what: string, cap: number) => new PlatformError('KER-SNC-500', `Internal Server Error: more than ${cap} ${what}, more than one answer holds`),
  notYourCentre: (id: string) => new PlatformError('KER-ATH-403', `Forbidden: the caller is not mapped to registration centre ${id}`),
};

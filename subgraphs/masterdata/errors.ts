import { PlatformError } from '../../lib/errors.js';

/**
 * Master data's codes: those of spec Document 1, then MOSIP's own for what the
 * spec names without a code (kernel-masterdata-service's error constants).
 */
export const masterdataErrors = {
  internal: (what: string) => new PlatformError('KER-MSD-500', `Internal Server Error: ${what}`),
  // devices
  deviceNotFound: (id?: string) => new PlatformError('KER-MSD-010', id ? `Device not Found: ${id}` : 'Device not Found'),
  deviceInsert: (why: string) => new PlatformError('KER-MSD-069', `Error while inserting device details: ${why}`),
  zoneNotAuthorized: () => new PlatformError('KER-MSD-439', 'Admin not authorized to access this device for this zone'),
  // holidays and locations
  holidayFetch: (why: string) => new PlatformError('KER-MSD-019', `Error while fetching holidays: ${why}`),
  holidayNotFound: () => new PlatformError('KER-MSD-020', 'Holiday not found'),
  locationHierarchyFetch: (why: string) => new PlatformError('KER-MSD-025', `Error while fetching location hierarchy: ${why}`),
  locationNotFound: (code?: string) => new PlatformError('KER-MSD-026', code ? `Location not found: ${code}` : 'Location not found'),
  holidayInsert: (why: string) => new PlatformError('KER-MSD-065', `Error while inserting holiday: ${why}`),
  holidayUpdate: (why: string) => new PlatformError('KER-MSD-099', `Error while updating holiday: ${why}`),
  holidayDelete: (why: string) => new PlatformError('KER-MSD-100', `Error while deleting holiday: ${why}`),
  // search and filter values (MOSIP's RequestError / ValidationErrorCode)
  badSearch: (why: string) => new PlatformError('KER-MSD-317', `Invalid search request: ${why}`),
  badFilterColumn: (column: string) => new PlatformError('KER-MSD-317', `Filter column ${column} is not supported`),
  badSortColumn: (column: string) => new PlatformError('KER-MSD-313', `Invalid sort field ${column}`),
  badSortType: (type: string) => new PlatformError('KER-MSD-358', `Sort type ${type} is not ASC or DESC`),
  badPagination: () => new PlatformError('KER-MSD-316', 'Pagination cannot be negative'),
  // languages
  languageNotSupported: (lang: string) => new PlatformError('KER-MSD-999', `Language ${lang} is not supported`),
};

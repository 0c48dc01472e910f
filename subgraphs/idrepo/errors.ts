import { PlatformError } from '../../lib/errors.js';

/** The ID repository's codes (spec Document 1, IDR-* and IDA-MLC-*). */
export const idrepoErrors = {
  missing: (field: string) => new PlatformError('IDR-IDC-001', `Missing Input Parameter - ${field}`),
  invalid: (field: string, why?: string) => new PlatformError('IDR-IDC-002', `Invalid Input Parameter - ${field}${why ? `: ${why}` : ''}`),
  invalidRequest: (why: string) => new PlatformError('IDR-IDC-003', `Invalid Request: ${why}`),
  unknown: () => new PlatformError('IDR-IDC-004', 'Unknown error occurred'),
  validationFailed: (why: string) => new PlatformError('IDR-IDC-005', `Input Data Validation Failed: ${why}`),
  database: () => new PlatformError('IDR-IDC-006', 'Error during DB operations'),
  notAllowed: (why: string) => new PlatformError('IDR-IDC-011', `Authorization failed: ${why}`),
  exists: (what: 'UIN' | 'RID') => new PlatformError('IDR-IDC-012', `Record already exists: an identity with this ${what} is stored`),
  noRecord: (what: string) => new PlatformError('IDR-IDC-007', `No Record(s) found: ${what}`),
  crypto: (why: string) => new PlatformError('IDR-IDS-003', `Failed to encrypt/decrypt data: ${why}`),
  store: () => new PlatformError('IDR-IDS-004', 'Failed to store/retrieve files in the object store'),
  schema: (why: string) => new PlatformError('IDR-IDS-005', `ID object validation failed: ${why}`),
  masterData: (why: string) => new PlatformError('IDR-IDS-007', `Failed to retrieve master data: ${why}`),
};

/** A missing argument is IDR-IDC-001, a malformed one IDR-IDC-002. */
export const idrepoCodeFor = (_field: string, missing: boolean): string => (missing ? 'IDR-IDC-001' : 'IDR-IDC-002');

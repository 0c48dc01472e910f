import { PlatformError } from '../../lib/errors.js';

/** The ID repository's codes (spec Document 1, IDR-* and IDA-MLC-*). */
export const idrepoErrors = {
  missing: (field: string) => new PlatformError('IDR-IDC-001', `Missing Input Parameter - ${field}`),
  invalid: (field: string, why?: string) => new PlatformError('IDR-IDC-002', `Invalid Input Parameter - ${field}${why ? `: ${why}` : ''}`),
  invalidRequest: (why: string) => new PlatformError('IDR-IDC-003', `Invalid Request: ${why}`),
  unknown: () => new PlatformError('IDR-IDC-004', 'Unknown error occurred'),
  /** a whole list longer than the bound its field declares (a state the rules that write it should not allow) */
  listTooLong: (what: string, cap: number) => new PlatformError('IDR-IDC-004', `Unknown error occurred: more than ${cap} ${what}, more than one answer lists`),
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

/** MOSIP's VID codes (IdRepoErrorConstants, VID service). */
export const vidErrors = {
  /** IDR-VID-001: the VID is not usable (REVOKED, EXPIRED, USED, INVALIDATED, DEACTIVATED) */
  invalidVid: (status: string) => new PlatformError('IDR-VID-001', `VID is ${status}`),
  generation: () => new PlatformError('IDR-VID-002', 'Failed to generate VID'),
  policy: (why: string) => new PlatformError('IDR-VID-003', `Could not generate/regenerate VID as per policy: ${why}`),
  /** IDR-VID-004: the identity is not ACTIVATED (BLOCKED, DEACTIVATED) */
  invalidUin: (status: string) => new PlatformError('IDR-VID-004', `${status} UIN`),
};

/** The authentication-type locks' IDA-MLC-* codes (spec Document 1), with MOSIP's messages. */
export const lockErrors = {
  requestTime: (window: string) => new PlatformError('IDA-MLC-001', `Request to be received at the platform within ${window}`),
  invalidUin: () => new PlatformError('IDA-MLC-002', 'Invalid UIN'),
  inactive: (status: string) => new PlatformError('IDA-MLC-003', status === 'BLOCKED' ? 'UIN has been blocked' : 'UIN has been deactivated'),
  missing: (field: string) => new PlatformError('IDA-MLC-006', `Missing Input parameter - ${field}`),
  unprocessable: () => new PlatformError('IDA-MLC-007', 'Request could not be processed. Please try again'),
  invalid: (field: string, why?: string) => new PlatformError('IDA-MLC-009', `Invalid Input parameter - ${field}${why ? `: ${why}` : ''}`),
  noConsent: () => new PlatformError('IDA-MLC-012', "Individual's Consent is not available"),
  idTypeNotConfigured: (type: string) => new PlatformError('IDA-MLC-015', `Identity Type - ${type} not configured for the country`),
  notFound: (type: 'UIN' | 'VID') => new PlatformError('IDA-MLC-018', `${type} not available in database`),
};

/**
 * A lock request's missing argument is IDA-MLC-006, a malformed one IDA-MLC-009; a request
 * that cannot be read at all (not JSON, `request` not an object) IDA-MLC-007.
 */
export const lockCodeFor = (field: string, missing: boolean): string => (missing ? 'IDA-MLC-006' : field === 'request' ? 'IDA-MLC-007' : 'IDA-MLC-009');

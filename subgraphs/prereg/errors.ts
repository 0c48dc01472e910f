import { PlatformError } from '../../lib/errors.js';

const fail = (code: string, message: string) => new PlatformError(code, message);

/** Envelope and request codes every pre-registration call shares (spec Document 1, PRG_PAM_CORE_* and PRG_CORE_REQ_*). */
export const requestErrors = {
  missing: (field: string) => fail('PRG_CORE_REQ_001', `Missing Input Parameter - ${field}`),
  invalid: (field: string, why?: string) => fail('PRG_CORE_REQ_004', `Invalid Input Parameter - ${field}${why ? `: ${why}` : ''}`),
  language: (code: string) => fail('PRG_CORE_REQ_014', `Invalid language code: ${code}`),
  /** the spec's two codes of one condition: PRG_PAM_CORE_010 on metadata, PRG_CORE_REQ_010 on a document's bytes */
  hash: (where: 'metadata' | 'content') =>
    fail(where === 'metadata' ? 'PRG_PAM_CORE_010' : 'PRG_CORE_REQ_010', 'Hashing failed: stored data failed its integrity check'),
  decrypt: (where: 'metadata' | 'content') => fail(where === 'metadata' ? 'PRG_PAM_CORE_012' : 'PRG_CORE_REQ_012', 'Decryption failed'),
  dateFormat: (field: string) => fail('PRG_CORE_REQ_019', `Invalid date time format: ${field} must be yyyy-MM-dd`),
  dateOrder: () => fail('PRG_CORE_REQ_020', 'From date is greater than To date'),
};

/** Login and configuration (PRG_AUTH_*, PRG_PAM_LGN_*). */
export const loginErrors = {
  otpNotSent: (why: string) => fail('PRG_AUTH_001', `OTP failed to send through the channel: ${why}`),
  configMissing: () => fail('PRG_AUTH_012', 'Config file not found in the config server'),
  invalidUserId: () => fail('PRG_PAM_LGN_008', 'Invalid userId received: a mobile number or an e-mail address'),
  wrongOtp: (why: string) => fail('PRG_PAM_LGN_013', `VALIDATION_UNSUCCESSFUL: ${why}`),
  noToken: () => fail('PRG_PAM_LGN_014', 'Token is not present in the header'),
};

/** Applications (PRG_PAM_APP_*), and the ID schema's KER-IOV-* as MOSIP's validator answers them. */
export const applicationErrors = {
  deleteRefused: (status: string) => fail('PRG_PAM_APP_003', `Application in ${status} status cannot be deleted`),
  notFound: () => fail('PRG_PAM_APP_005', 'No data found for the requested pre-registration id'),
  badStatus: (status: string) => fail('PRG_PAM_APP_005', `Invalid status code: ${status}`),
  badPage: () => fail('PRG_PAM_APP_016', 'Invalid page index'),
  notOwned: () => fail('PRG_PAM_APP_017', 'Requested preregistration id does not belong to the user'),
  noPrid: () => fail('PRG_PAM_APP_020', 'The pre-registration id could not be generated'),
  noSchema: () => fail('PRG_PAM_APP_020', 'No ID schema is published: the identity cannot be validated'),
  updateRefused: (status: string) => fail('PRG_PAM_APP_022', `Application in ${status} status cannot be updated`),
  submitRefused: (why: string) => fail('PRG_PAM_APP_023', `Application cannot move to Pending_Appointment: ${why}`),
  identityInvalid: (field: string, why?: string) => fail('KER-IOV-004', `Invalid input parameter - identity/${field}${why ? `: ${why}` : ''}`),
  identityMissing: (field: string) => fail('KER-IOV-005', `Missing input parameter - identity/${field}`),
};

/** Documents (PRG_PAM_DOC_*, PRG_CORE_REQ_017/018). */
export const documentErrors = {
  format: (allowed: string) => fail('PRG_PAM_DOC_004', `Document type is not supported: one of ${allowed}`),
  notFound: () => fail('PRG_PAM_DOC_005', 'Documents are not found for the requested pre-registration id'),
  deleteFailed: () => fail('PRG_PAM_DOC_006', 'Documents failed to delete'),
  size: (limit: number) => fail('PRG_PAM_DOC_007', `Document exceeds the permitted size of ${limit} bytes`),
  uploadFailed: (why: string) => fail('PRG_PAM_DOC_009', `Document upload failed: ${why}`),
  virus: () => fail('PRG_PAM_DOC_010', 'Document virus scan failed'),
  copyFailed: (why: string) => fail('PRG_PAM_DOC_011', `Document copy failed: ${why}`),
  table: () => fail('PRG_PAM_DOC_012', 'Document table not accessible'),
  notOfApplication: () => fail('PRG_PAM_DOC_022', 'DocumentId does not belong to the pre-registration id'),
  locked: (status: string) => fail('PRG_PAM_DOC_024', `Documents of an application in ${status} status cannot be changed`),
  type: (code: string) => fail('PRG_CORE_REQ_017', `Invalid document type code: ${code}`),
  copyCategory: (code: string) => fail('PRG_CORE_REQ_017', `Invalid category code ${code}: only POA is copied`),
  category: (code: string) => fail('PRG_CORE_REQ_018', `Invalid document category code: ${code}`),
};

/** Booking (PRG_BOOK_RCI_*). */
export const bookingErrors = {
  slotTaken: () => fail('PRG_BOOK_RCI_002', 'Availability not found for the selected time'),
  slotTimes: (why: string) => fail('PRG_BOOK_RCI_003', `User has not selected a valid time slot: ${why}`),
  noBooking: () => fail('PRG_BOOK_RCI_013', 'Booking data not found'),
  noSlots: () => fail('PRG_BOOK_RCI_015', 'No available slots found for the specified registration center'),
  cancelRefused: (status: string) => fail('PRG_BOOK_RCI_018', `Appointment cannot be cancelled in ${status} status`),
  tooLate: (what: 'cancelling' | 're-booking', hours: number) => fail('PRG_BOOK_RCI_026', `Appointment ${what} cannot be done within ${hours} hours`),
  past: () => fail('PRG_BOOK_RCI_031', 'Invalid booking date time: the appointment is in the past'),
  noneInRange: () => fail('PRG_BOOK_RCI_032', 'Record not found for date range and registration center id'),
  unknownCentre: () => fail('PRG_BOOK_RCI_035', 'Registration center id is invalid'),
  incomplete: () => fail('PRG_BOOK_RCI_036', 'Application is incomplete: upload the required documents first'),
};

/** Sync for the registration client and processor (PRG_DATA_SYNC_*). */
export const syncErrors = {
  noDemographic: () => fail('PRG_DATA_SYNC_007', 'Demographic record failed to fetch'),
  centre: (why?: string) => fail('PRG_DATA_SYNC_009', `Registration center id is invalid or empty${why ? `: ${why}` : ''}`),
  noBookings: () => fail('PRG_DATA_SYNC_016', 'Booking data not found'),
  machineKey: (why: string) => fail('PRG_DATA_SYNC_018', `Failed to fetch the machine's encryption public key: ${why}`),
  consumed: () => fail('PRG_DATA_SYNC_022', 'The pre-registration has been consumed'),
  /** a centre (or machine) outside the caller's: its staff, and the admins of its zones, only */
  notYourCentre: (what: string) => fail('KER-ATH-403', `Forbidden: ${what} is not at a registration centre the caller works at or administers`),
};

/**
 * A pre-registration argument the rules refuse: `id`, `version` and
 * `requesttime` are the envelope's PRG_PAM_CORE_001..003; any other missing
 * one PRG_CORE_REQ_001, a malformed one PRG_CORE_REQ_004. Areas with codes of
 * their own (booking's missing centre or date) answer those first.
 */
export function preregCodeFor(field: string, missing: boolean): string {
  if (field === 'id') return 'PRG_PAM_CORE_001';
  if (field === 'version') return 'PRG_PAM_CORE_002';
  if (field === 'requesttime') return 'PRG_PAM_CORE_003';
  return missing ? 'PRG_CORE_REQ_001' : 'PRG_CORE_REQ_004';
}

/** The code of a failure that is not the caller's. */
export const PREREG_INTERNAL = 'PRG_PAM_APP_020';

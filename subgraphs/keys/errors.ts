import { PlatformError } from '../../lib/errors.js';

/** Key manager (KER-KMS), crypto manager (KER-CRY), sync data machine key (KER-SNC) and signature (KER-CSS) codes of the spec. */
export const keyErrors = {
  unknownApplication: (applicationId: string) => new PlatformError('KER-KMS-002', `ApplicationId not found in Key Policy: ${applicationId}`),
  noUniqueAlias: (what: string) => new PlatformError('KER-KMS-003', `No unique alias is found: ${what}`),
  missingApplication: () => new PlatformError('KER-KMS-005', "Required String parameter 'applicationId' is not present"),
  missingParameter: (name: string) => new PlatformError('KER-KMS-005', `Required String parameter '${name}' is not present`),
  referenceNotSupported: (applicationId: string) => new PlatformError('KER-KMS-010', `Reference Id Not Supported for the Application ID: ${applicationId}`),
  notGenerated: (what: string) => new PlatformError('KER-KMS-012', `Key Generation Process is not completed: ${what}`),
  certificateParsing: (reason: string) => new PlatformError('KER-KMS-013', `Certificate Parsing Error: ${reason}`),
  invalidInput: (reason: string) => new PlatformError('KER-KMS-013', `Invalid request: ${reason}`),
  // partner certificate manager (MOSIP's KER-PCM codes)
  partnerCertificateInvalid: (reason: string) => new PlatformError('KER-PCM-001', `Invalid Certificate uploaded: ${reason}`),
  partnerCertificateDates: (reason: string) => new PlatformError('KER-PCM-004', `Certificate Dates are not valid: ${reason}`),
  partnerDomainInvalid: (domain: string) => new PlatformError('KER-PCM-011', `Invalid Partner Domain: ${domain}`),
  partnerCertificateNotFound: (partnerId: string) => new PlatformError('KER-PCM-012', `Partner Certificate not found for the given ID: ${partnerId}`),
  partnerKeyTooSmall: (bits: number) => new PlatformError('KER-PCM-013', `Partner Certificate Key Size is less than allowed size: ${bits} bits, 2048 at least`),
  // crypto manager
  unsupportedAlgorithm: (reason: string) => new PlatformError('KER-CRY-001', `No such algorithm is supported: ${reason}`),
  badPublicKey: (reason: string) => new PlatformError('KER-CRY-002', `public key is invalid: ${reason}`),
  badData: (reason: string) => new PlatformError('KER-CRY-003', `invalid data: ${reason}`),
  emptyInput: (field: string) => new PlatformError('KER-CRY-004', `${field} should not be null or empty`),
  keyManager: (reason: string) => new PlatformError('KER-CRY-006', `Key manager service replied with an error: ${reason}`),
  badTimestamp: () => new PlatformError('KER-CRY-007', "timestamp must be ISO 8601 (yyyy-MM-dd'T'HH:mm:ss.SSS'Z')"),
  // sync data's machine keys (MOSIP's kernel-syncdata-service MasterDataErrorCode.MACHINE_NOT_FOUND)
  machineNotFound: (machineName: string) => new PlatformError('KER-SNC-155', `Machine not found: no public key is mapped to machine ${machineName}`),
  // signature
  signatureInput: (reason: string) => new PlatformError('KER-CSS-999', `Invalid request input: ${reason}`),
  signatureInvalid: () => new PlatformError('KER-CSS-101', 'Validation Unsuccessful'),
};

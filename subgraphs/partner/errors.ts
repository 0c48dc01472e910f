import { PlatformError } from '../../lib/errors.js';

/** Partner management's codes (spec Document 1, PMS_*). */
export const partnerErrors = {
  missing: (field: string) => new PlatformError('PMS_COR_001', `Missing Input Parameter - ${field}`),
  invalid: (field: string, why: string) => new PlatformError('PMS_COR_002', `Invalid Input Parameter - ${field}: ${why}`),
  internal: () => new PlatformError('PMS_COR_003', 'Could not process the request'),
  /** a whole list (the spec answers every row) longer than one answer holds: the portal pages through the named connection */
  listTooLong: (what: string, cap: number, connection?: string) =>
    new PlatformError(
      'PMS_COR_003',
      `Could not process the request: more than ${cap} ${what}, more than one answer holds${connection ? `; page through the graph's ${connection}` : ''}`,
    ),
  // MISPs
  mispAdminUnknown: () => new PlatformError('PMS_MSP_001', 'MOSIP-admin user does not exist'),
  mispAdminMismatch: () => new PlatformError('PMS_MSP_002', 'admin credentials mismatch'),
  mispNameTaken: (name: string) => new PlatformError('PMS_MSP_003', `MISP already registered with the organization name ${name}`),
  mispNothingToUpdate: () => new PlatformError('PMS_MSP_004', 'No information provided for update'),
  mispNotFound: (id: string) => new PlatformError('PMS_MSP_005', `MISP ID does not exist: ${id}`),
  mispLicenseInvalid: () => new PlatformError('PMS_MSP_008', 'MISP License key not valid'),
  // policies
  policyManagerUnknown: () => new PlatformError('PMS_POL_001', 'Policy Manager does not exist'),
  policyManagerMismatch: () => new PlatformError('PMS_POL_002', 'Policy Manager credentials mismatch'),
  policyNameTaken: (name: string) => new PlatformError('PMS_POL_004', `Policy Name already exists in the policy group: ${name}`),
  kycAttributeUnsupported: (name: string) => new PlatformError('PMS_POL_005', `Unsupported KYC attribute in the policy file: ${name}`),
  authTypeUnsupported: (name: string) => new PlatformError('PMS_POL_006', `Unsupported authentication type in the policy file: ${name}`),
  kycAttributeMissing: () => new PlatformError('PMS_POL_007', 'eKYC attribute missing in the policy file'),
  policyNotFound: (id: string) => new PlatformError('PMS_POL_008', `Policy ID does not exist: ${id}`),
  policyNothingToUpdate: () => new PlatformError('PMS_POL_009', 'No information provided for update'),
  policyDenied: () => new PlatformError('PMS_POL_010', 'Policy Manager denied permission to update the policy'),
  // partners, as the partner manager sees them
  partnerManagerUnknown: (why?: string) => new PlatformError('PMS_PMP_001', `Partner Manager does not exist${why ? `: ${why}` : ''}`),
  partnerManagerMismatch: () => new PlatformError('PMS_PMP_002', 'Partner Manager credentials mismatch'),
  partnerManagerPasswordExpired: () => new PlatformError('PMS_PMP_003', 'password expired, reset required'),
  noPartnersInGroup: () => new PlatformError('PMS_PMP_004', 'No partners registered in the policy group'),
  partnerNotFound: (id: string) => new PlatformError('PMS_PMP_005', `Partner ID does not exist: ${id}`),
  partnerStatusDenied: () => new PlatformError('PMS_PMP_006', 'Partner Manager denied permission to activate/deactivate partner'),
  apiKeyNotFound: () => new PlatformError('PMS_PMP_007', 'Partner API Key does not exist'),
  apiKeyNotOnOldPolicy: () => new PlatformError('PMS_PMP_008', 'Partner API key is not assigned to the old policy ID, cannot move to new policy'),
  apiKeyOutsideGroup: () => new PlatformError('PMS_PMP_009', "Partner API key not in the Partner Manager's policy group"),
  policyOutsideGroup: () => new PlatformError('PMS_PMP_010', "Policy not in the Partner Manager's policy group"),
  apiKeyRequestNotFound: (id: string) => new PlatformError('PMS_PMP_011', `Partner API key Request ID does not exist: ${id}`),
  apiKeyRequestDenied: () => new PlatformError('PMS_PMP_012', 'Partner Manager denied permission to approve or reject the request'),
  policyMissing: (id: string) => new PlatformError('PMS_PMP_014', `Policy does not exist: ${id}`),
  mispLicenseExpired: () => new PlatformError('PMS_PMP_021', 'MISP license key is expired'),
  // validatePartnerMisp's links without a code in Document 1: MOSIP's PartnerValidationsConstants
  partnerNotActive: () => new PlatformError('PMS_PMP_016', 'Partner is not active'),
  policyNotActive: () => new PlatformError('PMS_PMP_019', 'Partner policy is not active'),
  mispLicenseUnknown: () => new PlatformError('PMS_PMP_020', 'MISP license key not exists'),
  policyGroupNotActive: () => new PlatformError('PMS_PMP_023', 'Policy group is not active'),
  mispBlocked: (why: string) => new PlatformError('PMS_PMP_025', `License key of MISP is blocked: ${why}`),
  // partners, as they see themselves
  partnerMismatch: () => new PlatformError('PMS_PRT_003', 'Partner credentials mismatch'),
  partnerPasswordExpired: () => new PlatformError('PMS_PRT_004', 'Partner password expired'),
  partnerUnknown: (id: string) => new PlatformError('PMS_PRT_005', `Partner does not exist: ${id}`),
  apiKeyRequestUnknown: (id: string) => new PlatformError('PMS_PRT_006', `APIKeyReqID does not exist: ${id}`),
  // another caller's partner record: the platform's forbidden code, as for any record not the caller's
  notYourPartner: () => new PlatformError('KER-ATH-403', 'Forbidden: not your partner record'),
};

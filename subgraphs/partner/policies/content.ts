import { partnerErrors } from '../errors.js';

/** Document 1's allowed values. */
export const AUTH_TYPES = ['otp', 'demo', 'bio', 'kyc'] as const;
export const BIO_SUB_TYPES = ['FINGER', 'IRIS', 'FACE'] as const;
export const KYC_ATTRIBUTES = [
  'fullName',
  'dateOfBirth',
  'gender',
  'phone',
  'email',
  'addressLine1',
  'addressLine2',
  'addressLine3',
  'location1',
  'location2',
  'location3',
  'postalCode',
  'photo',
] as const;

export interface AuthPolicy {
  authType: string;
  authSubType: string | null;
  mandatory: boolean;
}

export interface KycAttribute {
  attributeName: string;
  required: boolean;
}

/** A policy's `policies` member, as stored in Policy.policies. */
export interface PolicyContent {
  authPolicies: AuthPolicy[];
  allowedKycAttributes: KycAttribute[];
}

export interface PolicyContentInput {
  authPolicies: { authType: string; authSubType?: string | null; mandatory: boolean }[];
  allowedKycAttributes?: KycAttribute[] | null;
}

export const includes = (list: readonly string[], value: string) => list.includes(value);

/** Document 1's authentication type (otp) as the graph's PolicyAuthType (OTP), and back. */
export const graphAuthType = (spelled: string) => spelled.toUpperCase() as 'OTP' | 'DEMO' | 'BIO' | 'KYC';
export const spelledAuthType = (graph: string) => graph.toLowerCase();

/** The content checked against Document 1's values (PMS_POL_006, 007, 005, in that order), normalised for storage. */
export function checkContent(input: PolicyContentInput): PolicyContent {
  const authPolicies = input.authPolicies.map(({ authType, authSubType, mandatory }) => {
    const subType = authSubType || null; // MOSIP clients send "" for no sub-type
    if (!includes(AUTH_TYPES, authType)) throw partnerErrors.authTypeUnsupported(authType);
    if (authType === 'bio' ? !subType || !includes(BIO_SUB_TYPES, subType) : subType !== null)
      throw partnerErrors.authTypeUnsupported(`${authType}/${subType ?? 'no sub-type'}`);
    return { authType, authSubType: subType, mandatory };
  });
  const allowedKycAttributes = (input.allowedKycAttributes ?? []).map(({ attributeName, required }) => ({ attributeName, required }));
  if (authPolicies.some((policy) => policy.authType === 'kyc') && allowedKycAttributes.length === 0) throw partnerErrors.kycAttributeMissing();
  const unsupported = allowedKycAttributes.find((attribute) => !includes(KYC_ATTRIBUTES, attribute.attributeName));
  if (unsupported) throw partnerErrors.kycAttributeUnsupported(unsupported.attributeName);
  return { authPolicies, allowedKycAttributes };
}

/** Stored content back (written only by checkContent, so its shape holds). */
export function readContent(json: unknown): PolicyContent {
  const value = (json ?? {}) as Partial<PolicyContent>;
  return { authPolicies: value.authPolicies ?? [], allowedKycAttributes: value.allowedKycAttributes ?? [] };
}

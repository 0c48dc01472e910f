import { z } from 'zod';
import { identifier, pageArguments, text } from '../../../lib/input.js';
import { partnerErrors } from '../errors.js';
import { AUTH_TYPES, BIO_SUB_TYPES, graphAuthType, includes, spelledAuthType, type PolicyContentInput } from './content.js';

const trimmed = (min: number, max: number) => identifier(max).trim().min(min);
const id = trimmed(1, 36);
const name = trimmed(1, 128);
const desc = text(256).trim();
const authPolicy = z.object({ authType: trimmed(1, 32), authSubType: trimmed(0, 32).nullish(), mandatory: z.boolean() });
const kycAttribute = z.object({ attributeName: trimmed(1, 64), required: z.boolean() });
const content = z.object({ authPolicies: z.array(authPolicy).min(1).max(32), allowedKycAttributes: z.array(kycAttribute).max(64).nullish() });
const page = pageArguments();
const listFilter = { isActive: z.boolean().nullish(), nameContains: trimmed(0, 128).nullish() };

/** The arguments of the policy root fields, for GraphQL and REST alike. */
export const policiesSchemas = {
  createPolicyGroup: z.object({ name, desc: desc.nullish() }),
  addPolicyGroupManager: z.object({ policyGroupId: id, userId: trimmed(1, 64) }),
  removePolicyGroupManager: z.object({ policyGroupId: id, userId: trimmed(1, 64) }),
  createPolicy: z.object({ name, desc, policyGroupName: name.nullish(), policies: content }),
  updatePolicy: z.object({ policyId: id, name: name.nullish(), desc: desc.nullish(), policies: content.nullish() }),
  setPolicyActive: z.object({ policyId: id, isActive: z.boolean() }),
  policy: z.object({ policyId: id }),
  policies: z.object({ ...page, filter: z.object({ policyGroupId: id.nullish(), ...listFilter }).nullish() }),
  policyGroups: z.object({ ...page, filter: z.object(listFilter).nullish() }),
};

/** Content as the graph takes it. */
export interface GraphPolicyContent extends Omit<PolicyContentInput, 'authPolicies'> {
  authPolicies: { authType: ReturnType<typeof graphAuthType>; authSubType: (typeof BIO_SUB_TYPES)[number] | null; mandatory: boolean }[];
}

/**
 * A REST body's content (Document 1's spelling) as the graph's: an authentication type or
 * modality the graph has no value for is refused here as checkContent would (PMS_POL_006).
 */
export function graphContent(wire: PolicyContentInput): GraphPolicyContent {
  return {
    ...wire,
    authPolicies: wire.authPolicies.map(({ authType, authSubType, mandatory }) => {
      const subType = authSubType || null; // MOSIP clients send "" for no sub-type
      if (!includes(AUTH_TYPES, authType)) throw partnerErrors.authTypeUnsupported(authType);
      if (subType !== null && !includes(BIO_SUB_TYPES, subType)) throw partnerErrors.authTypeUnsupported(`${authType}/${subType}`);
      return { authType: graphAuthType(authType), authSubType: subType as (typeof BIO_SUB_TYPES)[number] | null, mandatory };
    }),
  };
}

/** Content in the graph's spelling (OTP) as Document 1 spells it (otp): what the graph takes, for checkContent; what REST answers. */
export const spelledPolicies = <T extends { authPolicies: readonly { authType: string }[] }>(content: T): T => ({
  ...content,
  authPolicies: content.authPolicies.map((policy) => ({ ...policy, authType: spelledAuthType(policy.authType) })),
});

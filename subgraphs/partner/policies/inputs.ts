import { z } from 'zod';
import { identifier, pageArguments, text } from '../../../lib/input.js';

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

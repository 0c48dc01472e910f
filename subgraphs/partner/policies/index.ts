import { z } from 'zod';
import { identifier, text } from '../../../lib/input.js';
import { access } from '../../../lib/roles.js';
import { MISP_ADMINS } from '../access.js';
import { defineArea } from '../area.js';
import { PolicyGroupService } from './groups-service.js';
import { policiesResolvers } from './resolvers.js';
import { PolicyService } from './service.js';

declare module '../../../lib/deps.js' {
  interface PlatformServices {
    /** policies of policy groups; `policyInGroup` for partners' API keys and validatePartnerMisp */
    policies: PolicyService;
    /** policy groups and their managers */
    policyGroups: PolicyGroupService;
  }
}

const trimmed = (min: number, max: number) => identifier(max).trim().min(min);
const id = trimmed(1, 36);
const name = trimmed(1, 128);
const desc = text(256).trim();
const authPolicy = z.object({ authType: trimmed(1, 32), authSubType: trimmed(0, 32).nullish(), mandatory: z.boolean() });
const kycAttribute = z.object({ attributeName: trimmed(1, 64), required: z.boolean() });
const content = z.object({ authPolicies: z.array(authPolicy).min(1).max(32), allowedKycAttributes: z.array(kycAttribute).max(64).nullish() });
const page = { first: z.number().int().nullish(), after: identifier(512).nullish() };
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

/** Who reads policies: admins everywhere, managers inside their groups. */
const READERS = access.roles('GLOBAL_ADMIN', 'PARTNER_ADMIN', 'POLICYMANAGER', 'PARTNERMANAGER');
/** Who writes them: admins everywhere, policy managers inside their groups. */
const WRITERS = access.roles('GLOBAL_ADMIN', 'PARTNER_ADMIN', 'POLICYMANAGER');

/** Policy groups, their managers, and their policies. */
export const policiesArea = defineArea({
  name: 'policies',
  desk: 'policy',
  // Policy groups are the admins' to make and staff.
  desks: {
    'Query.policyGroupList': 'misp',
    'Mutation.createPolicyGroup': 'misp',
    'Mutation.addPolicyGroupManager': 'misp',
    'Mutation.removePolicyGroupManager': 'misp',
  },
  access: {
    'Query.policies': READERS,
    'Query.policyGroups': READERS,
    'Query.policyList': READERS,
    'Query.policy': READERS,
    'Query.policyGroupList': MISP_ADMINS,
    'Mutation.createPolicyGroup': MISP_ADMINS,
    'Mutation.addPolicyGroupManager': MISP_ADMINS,
    'Mutation.removePolicyGroupManager': MISP_ADMINS,
    'Mutation.createPolicy': WRITERS,
    'Mutation.updatePolicy': WRITERS,
    'Mutation.setPolicyActive': WRITERS,
    'Policy.__resolveReference': READERS,
    'PolicyGroup.__resolveReference': READERS,
    'PolicyGroup.managers': READERS,
    'PolicyGroup.policies': READERS,
  },
  schemas: policiesSchemas,
  codeFor: (_field, missing) => (missing ? 'PMS_COR_001' : 'PMS_COR_002'),
  services: (deps) => ({
    policies: new PolicyService(deps.prisma, deps.clock),
    policyGroups: new PolicyGroupService(deps.prisma, deps.clock, () => deps.services.users),
  }),
  resolvers: policiesResolvers,
});

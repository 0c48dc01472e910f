import { access } from '../../../lib/roles.js';
import { MISP_ADMINS } from '../access.js';
import { defineArea } from '../area.js';
import { codeFor } from '../inputs.js';
import { PolicyGroupService } from './groups-service.js';
import { policiesSchemas } from './inputs.js';
import { policiesResolvers } from './resolvers.js';
import { PolicyService } from './service.js';
import { policiesStorage } from './storage.js';

declare module '../../../lib/deps.js' {
  interface PlatformServices {
    /** policies of policy groups; `named`, `policyInGroup` and `link` for partners' API keys and validatePartnerMisp */
    policies: PolicyService;
    /** policy groups and their managers */
    policyGroups: PolicyGroupService;
  }
}

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
    // A partner reaches a policy only as that of one of its own API keys or requests (ApiKey.policy,
    // ApiKeyRequest.policy, through its scope): it reads its id and name, which have no row; every other field is the readers'.
    'Policy.description': READERS,
    'Policy.policies': READERS,
    'Policy.isActive': READERS,
    'Policy.policyGroup': READERS,
    'Partner.policyGroup': READERS,
    'Policy.createdBy': READERS,
    'Policy.createdAt': READERS,
    'Policy.updatedBy': READERS,
    'Policy.updatedAt': READERS,
    'PolicyGroup.__resolveReference': READERS,
    'PolicyGroup.managers': READERS,
    'PolicyGroup.policies': READERS,
  },
  schemas: policiesSchemas,
  codeFor,
  services: (deps) => {
    const storage = policiesStorage(deps.prisma);
    return {
      policies: new PolicyService(storage, deps.clock, deps.events),
      policyGroups: new PolicyGroupService(storage, deps.clock, deps.services.users),
    };
  },
  resolvers: policiesResolvers,
});

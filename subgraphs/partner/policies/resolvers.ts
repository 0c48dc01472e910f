import type { Resolvers } from '../../../generated/graphql/partner.js';
import type { RequestContext } from '../../../lib/context.js';
import type { PlatformDeps } from '../../../lib/deps.js';
import { loader } from '../../../lib/graph/loader.js';
import { nestedConnection } from '../../../lib/graph/nested.js';
import { graphAuthType, readContent } from './content.js';
import { spelledPolicies } from './inputs.js';
import type { Caller, Scope } from './scope.js';
import { orNull } from '../../../lib/graph/absent.js';

const createdBy = (row: { createdBy: string }) => ({ userId: row.createdBy });
const updatedBy = (row: { updatedBy: string | null }) => (row.updatedBy ? { userId: row.updatedBy } : null);

/** Resolvers of the policies area: each unpacks its arguments and hands the caller's scope to the services. */
export function policiesResolvers(deps: PlatformDeps): Resolvers {
  const { policies, policyGroups } = deps.services;
  // The caller's groups, looked up once per request whatever the number of fields that need them.
  const scopes = new WeakMap<RequestContext, Promise<Scope>>();
  const scope = (context: RequestContext): Promise<Scope> => {
    let found = scopes.get(context);
    if (!found) {
      found = context.principal().then((principal) => policyGroups.scopeOf(principal));
      scopes.set(context, found);
    }
    return found;
  };
  const caller = async (context: RequestContext): Promise<Caller> => ({ subject: (await context.principal()).subject, scope: await scope(context) });
  const policyOf = (context: RequestContext) => loader(context, 'partner.policy', async (ids: readonly string[]) => policies.byIds(await scope(context), ids));
  const groupOf = (context: RequestContext) =>
    loader(context, 'partner.policyGroup', async (ids: readonly string[]) => policyGroups.byIds(await scope(context), ids));
  const managersOf = (context: RequestContext) => loader(context, 'partner.policyGroupManagers', (ids: readonly string[]) => policyGroups.managersOf(ids));

  return {
    Query: {
      policies: async (_, args, context) => policies.list(await scope(context), args, args.filter),
      policyGroups: async (_, args, context) => policyGroups.list(await scope(context), args, args.filter),
      policyList: async (_, _args, context) => policies.ofCaller(await caller(context)),
      policy: async (_, args, context) => orNull(policies.get(await caller(context), args.policyId), 'PMS_POL_008'),
      policyGroupList: async (_, _args, context) => policyGroups.all(await scope(context)),
    },
    Mutation: {
      createPolicyGroup: async (_, args, context) => policyGroups.create((await context.principal()).subject, args),
      addPolicyGroupManager: async (_, args, context) => policyGroups.addManager((await context.principal()).subject, args.policyGroupId, args.userId),
      removePolicyGroupManager: (_, args) => policyGroups.removeManager(args.policyGroupId, args.userId),
      createPolicy: async (_, args, context) => policies.create(await caller(context), { ...args, policies: spelledPolicies(args.policies) }),
      updatePolicy: async (_, args, context) =>
        policies.update(await caller(context), args.policyId, { ...args, policies: args.policies && spelledPolicies(args.policies) }),
      setPolicyActive: async (_, args, context) => policies.setActive(await caller(context), args.policyId, args.isActive),
    },
    AuthPolicy: {
      authType: (policy) => graphAuthType(policy.authType),
    },
    Policy: {
      __resolveReference: (ref, context) => policyOf(context)(ref.id),
      // Each field its own resolver: each has a role row (index.ts), as partners read the id and name alone.
      description: (row) => row.description,
      policies: (row) => readContent(row.policies),
      isActive: (row) => row.isActive,
      policyGroup: (row, _, context) => groupOf(context)(row.policyGroupId),
      createdBy,
      createdAt: (row) => row.createdAt,
      updatedBy,
      updatedAt: (row) => row.updatedAt,
    },
    Partner: {
      policyGroup: (partner, _, context) => groupOf(context)(partner.policyGroupId),
    },
    PolicyGroup: {
      __resolveReference: (ref, context) => groupOf(context)(ref.id),
      managers: async (group, _, context) => policyGroups.listedManagers((await managersOf(context)(group.id)) ?? []).map((userId) => ({ userId })),
      policies: async (group, args, context) =>
        nestedConnection(context, 'partner.groupPolicies', args, group.id, policies.policiesOfGroups(await scope(context), args.filter)),
      createdBy,
      updatedBy,
    },
  };
}

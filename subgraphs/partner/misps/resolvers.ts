import type { Resolvers } from '../../../generated/graphql/partner.js';
import type { RequestContext } from '../../../lib/context.js';
import type { PlatformDeps } from '../../../lib/deps.js';
import { loader } from '../../../lib/graph/loader.js';
import { orNull } from '../../../lib/graph/absent.js';
import { graphMispStatus } from './inputs.js';

/** Resolvers of the MISPs area: each unpacks its arguments and names the caller to the service. */
export function mispsResolvers(deps: PlatformDeps): Resolvers {
  const service = deps.services.misps;
  const byId = (context: RequestContext) => loader(context, 'partner.misp', (ids: readonly string[]) => service.byIds(ids));
  const by = async (context: RequestContext) => (await context.principal()).subject;
  return {
    Query: {
      misp: (_, args) => orNull(service.get(args.mispId), 'PMS_MSP_005'),
      mispsByName: (_, args) => service.byName(args.name),
      allMisps: () => service.all(),
      mispLicense: async (_, args) => {
        const key = await service.currentLicense(args.mispId);
        return key ? { mispId: args.mispId, keyHint: key.keyHint, status: key.status, expiresAt: key.expiresAt } : null;
      },
      misps: (_, args) => service.list(args, args.filter),
    },
    Mutation: {
      createMisp: async (_, args, context) => service.create(await by(context), args),
      decideMisp: async (_, args, context) => service.decide(await by(context), args.mispId, args.mispStatus),
      setMispActive: async (_, args, context) => service.setActive(await by(context), args.mispId, args.isActive ? 'Active' : 'De-Active'),
      updateMisp: async (_, { mispId, ...input }, context) => service.update(await by(context), mispId, input),
      validateMispLicense: async (_, args) => {
        await service.validateLicense(args.mispId, args.mispLicenseKey);
        return true;
      },
      regenerateMispLicense: async (_, args, context) => service.regenerateLicense(await by(context), args.mispId),
    },
    IssuedMispLicense: {
      misp: (issued, _, context) => byId(context)(issued.mispId),
    },
    Misp: {
      __resolveReference: (ref, context) => byId(context)(ref.id),
      status: (row) => graphMispStatus(row.status),
      createdBy: (row) => ({ userId: row.createdBy }),
      updatedBy: (row) => (row.updatedBy ? { userId: row.updatedBy } : null),
    },
  };
}

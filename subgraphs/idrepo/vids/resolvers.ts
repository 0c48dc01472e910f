import type { Resolvers } from '../../../generated/graphql/idrepo.js';
import type { RequestContext } from '../../../lib/context.js';
import type { PlatformDeps } from '../../../lib/deps.js';
import { loader } from '../../../lib/graph/loader.js';
import { nestedConnection } from '../../../lib/graph/nested.js';
import { idrepoErrors } from '../errors.js';
import type { VidStatus } from './service.js';

export function vidsResolvers(deps: PlatformDeps): Resolvers {
  const { vids, identities } = deps.services;
  const vidRef = (context: RequestContext) => loader(context, 'idrepo.vid', (ids: readonly string[]) => vids.byIds(ids));
  // The identities area's loader, by the same name: one query for both areas' references in a request.
  const identityRef = (context: RequestContext) => loader(context, 'idrepo.identity', (ids: readonly string[]) => identities.byIds(ids));
  return {
    Query: {
      uinByVid: async (_, args, context) => vids.uinOf(await context.principal(), args.vid),
      vidsByUin: async (_, args, context) => vids.listByUin(await context.principal(), args.uin),
    },
    Mutation: {
      createVid: async (_, args, context) => vids.create(await context.principal(), args),
      updateVidStatus: async (_, args, context) => {
        const change = await vids.updateStatus(await context.principal(), args.vid, args.vidStatus);
        return { ...change, vidStatus: change.vidStatus as VidStatus };
      },
      regenerateVid: async (_, args, context) => vids.regenerate(await context.principal(), args.vid),
      deactivateVids: async (_, args, context) => ({
        ...(await vids.deactivate(await context.principal(), args.uin)),
        vidStatus: 'DEACTIVATED',
        restoredVid: null,
      }),
      reactivateVids: async (_, args, context) => ({ ...(await vids.reactivate(await context.principal(), args.uin)), vidStatus: 'ACTIVE', restoredVid: null }),
    },
    VidIssued: {
      record: (issued, _, context) => vidRef(context)(issued.id),
    },
    Vid: {
      __resolveReference: (ref, context) => vidRef(context)(ref.id),
      vid: (row) => vids.vidOf(row),
      type: (row) => row.vidType,
      status: (row) => vids.statusOf(row),
      identity: async (row, _, context) => {
        const identity = await identityRef(context)(row.identityId);
        if (!identity) throw idrepoErrors.noRecord('the VID names no stored identity');
        return identity;
      },
    },
    Identity: {
      vids: (row, args, context) => nestedConnection(context, 'idrepo.identityVids', args, row.id, vids.ofIdentities(args.filter)),
    },
  };
}

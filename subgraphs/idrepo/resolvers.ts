import type { Resolvers } from '../../generated/graphql/idrepo.js';
import type { RequestContext } from '../../lib/context.js';
import { loader } from '../../lib/graph/loader.js';
import { DateTimeScalar, JsonScalar } from '../../lib/graph/scalars.js';
import type { IdentityService } from './service.js';

const userRef = (userId: string | null) => (userId ? { userId } : null);

/** The entity link of an identity: MOSIP's `entity`, the read by UIN. */
export type EntityUrl = (uin: string) => string;

export function idrepoResolvers(identities: IdentityService, entityUrl: EntityUrl): Resolvers {
  const identityRef = (context: RequestContext) => loader(context, 'idrepo.identity', (ids: readonly string[]) => identities.byIds(ids));
  const stored = ({ status, uin, identity }: { status: string; uin: string; identity: Parameters<typeof identities.identityOf>[0] }) => ({
    status: status as 'ACTIVATED',
    entity: entityUrl(uin),
    identity,
  });
  return {
    DateTime: DateTimeScalar,
    JSON: JsonScalar,
    Query: {
      identity: (_, args) => identities.lookup(args),
      identityByUin: async (_, args, context) => identities.read(await context.principal(), { uin: args.uin }, args.type as 'bio' | null),
      identityByRid: async (_, args, context) => identities.read(await context.principal(), { rid: args.rid }, args.type as 'bio' | null),
    },
    Mutation: {
      createIdentity: async (_, args, context) => stored(await identities.create(await context.principal(), args)),
      updateIdentity: async (_, args, context) =>
        stored(await identities.update(await context.principal(), { ...args, status: args.status as 'ACTIVATED' | null })),
    },
    IdentityRecord: {
      status: (record) => record.status as 'ACTIVATED',
    },
    Identity: {
      __resolveReference: (ref, context) => identityRef(context)(ref.id),
      status: (row) => row.status as 'ACTIVATED',
      demographics: async (row, _, context) => identities.demographics(await context.principal(), row),
      reads: (row, args) => identities.reads(row.id, args),
      createdBy: (row) => ({ userId: row.createdBy }),
      updatedBy: (row) => userRef(row.updatedBy),
    },
  };
}

import type { Resolvers } from '../../../generated/graphql/idrepo.js';
import type { RequestContext } from '../../../lib/context.js';
import { loader } from '../../../lib/graph/loader.js';
import { nestedConnection } from '../../../lib/graph/nested.js';
import type { PlatformDeps } from '../../../lib/deps.js';
import { olderNames } from '../../../lib/graph/filters.js';

const userRef = (userId: string | null) => (userId ? { userId } : null);

export function identitiesResolvers(deps: PlatformDeps): Resolvers {
  const { identities } = deps.services;
  // MOSIP's `entity`: the identity's read by UIN, at the address callers reach the platform at.
  const base = (deps.config.publicUrl ?? `http://localhost:${deps.config.port}`).replace(/\/$/, '');
  const entityUrl = (uin: string) => `${base}/idrepository/v1/identity/uin/${uin}`;
  const identityRef = (context: RequestContext) => loader(context, 'idrepo.identity', (ids: readonly string[]) => identities.byIds(ids));
  const stored = ({ status, uin, identity }: { status: string; uin: string; identity: Parameters<typeof identities.identityOf>[0] }) => ({
    status: status as 'ACTIVATED',
    entity: entityUrl(uin),
    identity,
  });
  return {
    Query: {
      identity: async (_, args, context) => identities.lookup(await context.principal(), args, (vid) => deps.services.vids.identityOfVid(vid)),
      identityByUin: async (_, args, context) => identities.read(await context.principal(), { uin: args.uin }, args.type as 'bio' | null),
      identityByRid: async (_, args, context) => identities.read(await context.principal(), { rid: args.rid }, args.type as 'bio' | null),
    },
    Mutation: {
      createIdentity: async (_, args, context) => stored(await identities.create(await context.principal(), args)),
      updateIdentity: async (_, args, context) => stored(await identities.update(await context.principal(), { ...args, status: args.status })),
    },
    IdentityRecord: {
      status: (record) => record.status as 'ACTIVATED',
    },
    Registration: {
      __resolveReference: (ref) => ({ registrationId: ref.registrationId }),
      identity: (registration, _, context) =>
        loader(context, 'idrepo.identityByRegistration', (rids: readonly string[]) => identities.byRegistrations(rids))(registration.registrationId),
    },
    Identity: {
      __resolveReference: (ref, context) => identityRef(context)(ref.id),
      status: (row) => row.status as 'ACTIVATED',
      demographics: async (row, _, context) => identities.demographics(await context.principal(), row),
      reads: (row, args, context) =>
        nestedConnection(
          context,
          'idrepo.identityReads',
          args,
          row.id,
          identities.readsOfIdentities(olderNames(args.filter, { readAfter: 'from', readBefore: 'to' }) ?? {}, args.orderBy?.direction ?? 'DESC'),
        ),
      createdBy: (row) => ({ userId: row.createdBy }),
      updatedBy: (row) => userRef(row.updatedBy),
      registration: (row) => ({ registrationId: row.registrationId }),
      registrations: async (row, _, context) =>
        identities
          .listedRegistrations(
            (await loader(context, 'idrepo.registrationsOfIdentity', (ids: readonly string[]) => identities.registrationsOf(ids))(row.id)) ?? [],
          )
          .map((registrationId) => ({ registrationId })),
    },
    IdentityRead: {
      reader: (row) => ({ userId: row.readBy }),
    },
  };
}

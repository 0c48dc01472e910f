import type { Resolvers } from '../../../generated/graphql/abis.js';
import type { PlatformDeps } from '../../../lib/deps.js';
import { loader } from '../../../lib/graph/loader.js';
import type { AbisRequestRow } from './storage.js';

export function requestsResolvers(deps: PlatformDeps): Resolvers {
  const byRids = async (rids: readonly string[]) => {
    const grouped = new Map<string, AbisRequestRow[]>();
    for (const row of await deps.services.abisRequests.requestsByRids(rids)) grouped.set(row.rid, [...(grouped.get(row.rid) ?? []), row]);
    return grouped;
  };
  return {
    Registration: {
      __resolveReference: (ref) => ref,
      abisRequests: async (registration, _, context) => (await loader(context, 'abis.requests', byRids)(registration.registrationId)) ?? [],
    },
    AbisRequest: {
      requestId: (row) => row.id,
      registrationId: (row) => row.rid,
      candidates: (row) => (row.candidates as string[] | null) ?? [],
    },
  };
}

import type { z } from 'zod';
import type { Resolvers } from '../../../generated/graphql/abis.js';
import type { PlatformDeps } from '../../../lib/deps.js';
import { within } from '../../../lib/graph/capped.js';
import { loader } from '../../../lib/graph/loader.js';
import { abisErrors } from '../errors.js';
import { MAX_REQUESTS_LISTED } from './service.js';
import type { requestsSchemas } from './inputs.js';
import type { AbisRequestRow } from './storage.js';

/** The arguments as the area's schemas have parsed them (the subgraph checks every call before it reaches a resolver). */
type Parsed<F extends keyof typeof requestsSchemas> = z.output<(typeof requestsSchemas)[F]>;

/** How long an operator's question waits for its answers when it does not say. */
const DEFAULT_WAIT_SECONDS = 5;

export function requestsResolvers(deps: PlatformDeps): Resolvers {
  const requests = deps.services.abisRequests;
  const operator = deps.services.abisOperator;
  const local = deps.services.manualVerification;
  const byRids = async (rids: readonly string[]) => {
    const grouped = new Map<string, AbisRequestRow[]>();
    for (const row of await requests.requestsByRids(rids)) grouped.set(row.rid!, [...(grouped.get(row.rid!) ?? []), row]);
    return grouped;
  };
  return {
    Query: {
      abisRequests: (_, args) => {
        const { filter, ...page } = args as Parsed<'abisRequests'>;
        return operator.list(filter ?? {}, page);
      },
      abisSystems: () => operator.systems(),
    },
    Mutation: {
      askAbis: async (_, args, context) => {
        const { question, abisName, waitSeconds } = (args as Parsed<'askAbis'>).input;
        return { requests: await operator.ask(question, abisName, (await context.principal()).subject, waitSeconds ?? DEFAULT_WAIT_SECONDS) };
      },
      deleteAbisReference: async (_, args, context) => {
        const { registrationId, abisName } = (args as Parsed<'deleteAbisReference'>).input;
        return { requests: await operator.deleteReference(registrationId, abisName, (await context.principal()).subject) };
      },
    },
    Registration: {
      __resolveReference: (ref) => ref,
      // Bounded per registration (MAX_REQUESTS_LISTED, refused beyond: null with an error for that registration alone).
      abisRequests: async (registration, _, context) =>
        within(MAX_REQUESTS_LISTED, (await loader(context, 'abis.requests', byRids)(registration.registrationId)) ?? [], () =>
          abisErrors.requestsTooMany(MAX_REQUESTS_LISTED),
        ),
      // The ABIS's answers; without any (REGPROC_DEDUPE=local asks none), the duplicates the platform's own matcher recorded.
      candidates: async (registration, _, context) => {
        const rid = registration.registrationId;
        const asked = await loader(context, 'abis.candidates', (rids: readonly string[]) => requests.candidatesByRids(rids))(rid);
        const found = asked ?? (await loader(context, 'abis.localCandidates', (rids: readonly string[]) => local.duplicatesByRids(rids))(rid)) ?? [];
        return found.map((registrationId) => ({ registrationId }));
      },
    },
    AbisRequest: {
      __resolveReference: (ref, context) =>
        loader(
          context,
          'abis.request',
          async (ids: readonly string[]) => new Map((await requests.requestsByIds(ids)).map((row) => [row.id, row])),
        )(ref.requestId),
      requestId: (row) => row.id,
      registrationId: (row) => row.rid,
      registration: (row) => (row.rid ? { registrationId: row.rid } : null),
      candidates: (row) => (row.candidates as string[] | null) ?? [],
    },
  };
}

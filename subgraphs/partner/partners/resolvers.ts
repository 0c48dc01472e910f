import type { z } from 'zod';
import type { ApiKeyRequestStatus, PartnerStatus, Resolvers } from '../../../generated/graphql/partner.js';
import type { RequestContext } from '../../../lib/context.js';
import type { PlatformDeps } from '../../../lib/deps.js';
import { loader } from '../../../lib/graph/loader.js';
import { nestedConnection } from '../../../lib/graph/nested.js';
import { partnersSchemas, PARTNER_STATUS as STORED_PARTNER_STATUS, REQUEST_STATUS as STORED_REQUEST_STATUS } from './inputs.js';
import type { Scope } from './scope.js';

const PARTNER_STATUS: Record<string, PartnerStatus> = STORED_PARTNER_STATUS;
const REQUEST_STATUS: Record<string, ApiKeyRequestStatus> = STORED_REQUEST_STATUS;
/** The stored value of a graph enum value. */
const stored = <T extends string>(map: Record<string, T>, value: T | null | undefined) => (value ? Object.keys(map).find((key) => map[key] === value) : null);
const userRef = (userId: string | null) => (userId ? { userId } : null);

/** Resolvers of the partners area: each unpacks its arguments and hands the caller, or its scope, to the services. */
export function partnersResolvers(deps: PlatformDeps): Resolvers {
  const { partners, partnerApiKeys: apiKeys } = deps.services;
  // One scope per request, computed once: every read below goes through it.
  const scopes = new WeakMap<RequestContext, Promise<Scope>>();
  const scope = (context: RequestContext) => {
    let found = scopes.get(context);
    if (!found) scopes.set(context, (found = context.principal().then((principal) => partners.scope(principal))));
    return found;
  };
  const partnerOf = (context: RequestContext) =>
    loader(context, 'partner.partner', async (ids: readonly string[]) => partners.partnersByIds(await scope(context), ids));
  const requestOf = (context: RequestContext) =>
    loader(context, 'partner.request', async (ids: readonly string[]) => apiKeys.requestsByIds(await scope(context), ids));
  const keyOf = (context: RequestContext) =>
    loader(context, 'partner.apiKey', async (ids: readonly string[]) => apiKeys.apiKeysByIds(await scope(context), ids));
  const keyOfRequest = (context: RequestContext) =>
    loader(context, 'partner.apiKeyByRequest', async (ids: readonly string[]) => apiKeys.apiKeysByRequest(await scope(context), ids));
  // Not the policies area's loader: a key's policy is read through the partner's scope (api-keys.ts, policiesOfKeys). One loader
  // per list, so that each list's policies are one batch whenever its page arrives: a page of keys and one of requests cost
  // two, however the two pages' answers interleave.
  const policyOf = (name: string) => (context: RequestContext) =>
    loader(context, name, async (ids: readonly string[]) => apiKeys.policiesOfKeys(await scope(context), ids));
  const policyOfKey = policyOf('partner.keyPolicy');
  const policyOfRequest = policyOf('partner.requestPolicy');
  const caller = (context: RequestContext) => context.principal();
  return {
    Query: {
      apiKeyRequestState: async (_, args, context) => apiKeys.requestStatus(await caller(context), args.partnerId, args.apiKeyReqId),
      managedPartners: async (_, _args, context) => partners.managedPartners(await caller(context)),
      partnerPlatformCertificate: () => partners.platformCertificate(),
      partnerCertificate: async (_, args, context) => partners.certificate(await caller(context), args.partnerId),
      partners: async (_, args, context) =>
        partners.partners(await scope(context), args, { status: stored(PARTNER_STATUS, args.filter?.status), policyGroupId: args.filter?.policyGroupId }),
      apiKeyRequests: async (_, args, context) =>
        apiKeys.apiKeyRequests(await scope(context), args, { status: stored(REQUEST_STATUS, args.filter?.status), partnerId: args.filter?.partnerId }),
    },
    Mutation: {
      registerPartner: async (_, args, context) => partners.register(await caller(context), args),
      uploadPartnerCertificate: async (_, args, context) =>
        partners.uploadCertificate(await caller(context), args.partnerId, args.certificateData, args.partnerDomain),
      updatePartnerStatus: async (_, args, context) =>
        partners.updatePartnerStatus(await caller(context), args.partnerId, stored(PARTNER_STATUS, args.status)!),
      requestPartnerApiKey: async (_, args, context) => apiKeys.requestApiKey(await caller(context), args.partnerId, args.policyName, args.useCaseDescription),
      decideApiKeyRequest: async (_, args, context) => apiKeys.decide(await caller(context), args.apiKeyReqId, stored(REQUEST_STATUS, args.status)!),
      updatePartnerApiKeyStatus: async (_, args, context) =>
        apiKeys.updateApiKeyStatus(await caller(context), args.partnerId, args.partnerApiKey, stored(PARTNER_STATUS, args.status)!),
      changePartnerApiKeyPolicy: async (_, args, context) => {
        const { partnerId, partnerApiKey, oldPolicyId, newPolicyId } = args as unknown as z.output<typeof partnersSchemas.changePartnerApiKeyPolicy>;
        return apiKeys.changeKeyPolicy(await caller(context), partnerId, partnerApiKey, oldPolicyId, newPolicyId);
      },
    },
    Partner: {
      __resolveReference: (ref, context) => partnerOf(context)(ref.id),
      status: (row) => PARTNER_STATUS[row.status] ?? 'DE_ACTIVE',
      login: (row) => userRef(row.userId),
      createdBy: (row) => ({ userId: row.createdBy }),
      updatedBy: (row) => userRef(row.updatedBy),
      apiKeyRequests: async (row, args, context) =>
        nestedConnection(
          context,
          'partner.partnerRequests',
          args,
          row.id,
          apiKeys.requestsOfPartners(await scope(context), { status: stored(REQUEST_STATUS, args.filter?.status), policyId: args.filter?.policyId }),
        ),
      apiKeys: async (row, args, context) =>
        nestedConnection(
          context,
          'partner.partnerKeys',
          args,
          row.id,
          apiKeys.apiKeysOfPartners(await scope(context), { status: stored(PARTNER_STATUS, args.filter?.status), policyId: args.filter?.policyId }),
        ),
    },
    PartnerCertificateUpload: {
      partner: (row, _, context) => partnerOf(context)(row.partnerId),
    },
    ApiKeyDecision: {
      partnerApiKey: (decision) => decision.partnerAPIKey ?? null,
    },
    PartnerRegistration: {
      partner: (row, _, context) => partnerOf(context)(row.partnerId),
    },
    ApiKeyRequestSubmitted: {
      apiKeyRequest: (row, _, context) => requestOf(context)(row.apiRequestId),
    },
    ApiKeyRequest: {
      __resolveReference: (ref, context) => requestOf(context)(ref.id),
      partner: (row, _, context) => partnerOf(context)(row.partnerId),
      status: (row) => REQUEST_STATUS[row.status] ?? 'IN_PROGRESS',
      decidedBy: (row) => userRef(row.decidedBy),
      apiKey: (row, _, context) => keyOfRequest(context)(row.id),
      policy: (row, _, context) => policyOfRequest(context)(row.policyId),
      createdBy: (row) => ({ userId: row.createdBy }),
    },
    ApiKey: {
      __resolveReference: (ref, context) => keyOf(context)(ref.id),
      partner: (row, _, context) => partnerOf(context)(row.partnerId),
      status: (row) => PARTNER_STATUS[row.status] ?? 'DE_ACTIVE',
      policy: (row, _, context) => policyOfKey(context)(row.policyId),
      createdBy: (row) => ({ userId: row.createdBy }),
      updatedBy: (row) => userRef(row.updatedBy),
    },
  };
}

/**
 * The caller's own partner record under the auth subgraph's Viewer. Outside
 * the desks (index.ts): any signed-in caller may ask, and gets null unless it
 * is a partner's login with a record, which is then admitted at the partner
 * desk. The representation's id is only compared: the record is the token's
 * subject's.
 */
export function viewerResolvers(deps: PlatformDeps): Pick<Resolvers, 'Viewer'> {
  const { partners } = deps.services;
  return {
    Viewer: {
      __resolveReference: (ref) => ({ id: ref.id }),
      partner: async (viewer, _, context) => {
        const caller = await context.principal();
        const own = viewer.id === caller.subject ? await partners.ownRecord(caller) : null;
        // A caller with a record of its own sits at the partner desk to read it (its token's application, its password's age).
        if (own) await deps.services.partnerCallers.admit(caller, 'partner');
        return own;
      },
    },
  };
}

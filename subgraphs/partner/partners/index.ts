import { z } from 'zod';
import type { ApiKeyRequestStatus, PartnerStatus } from '../../../generated/graphql/partner.js';
import type { RequestContext } from '../../../lib/context.js';
import { loader } from '../../../lib/graph/loader.js';
import { PlatformError } from '../../../lib/errors.js';
import { identifier, text } from '../../../lib/input.js';
import { access } from '../../../lib/roles.js';
import type { PartnerReach } from '../../keys/partner-access.js';
import { PARTNER_MANAGERS } from '../access.js';
import { defineArea } from '../area.js';
import type { Scope } from './scope.js';
import { DECISIONS, PARTNER_STATUSES, PartnerService } from './service.js';

declare module '../../../lib/deps.js' {
  interface PlatformServices {
    /** Auth/E-KYC partners, their API key requests and keys (findApiKey: a key by its clear value) */
    partners: PartnerService;
    /** which partners a caller reaches, admitted as at partner management's desk: what the key store asks of a partner's certificate */
    partnerReach: PartnerReach;
  }
}

const id = identifier(64).trim().min(1);
/** A name, code or key: no control characters. */
const word = (max: number) => identifier(max).trim().min(1);
/** Free text (an address, a certificate): line breaks allowed, NUL not. */
const prose = (max: number) => text(max).trim();
/** A string first, so that an absent value reads as missing (PMS_COR_001), not as a wrong option. */
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) => z.string().pipe(z.enum(values));
const partnerStatus = oneOf(PARTNER_STATUSES);
const page = { first: z.number().int().nullish(), after: identifier(512).nullish() };

/** The arguments of the partner root fields, for GraphQL and REST alike. */
export const partnersSchemas = {
  registerPartner: z.object({
    partnerId: id.nullish(),
    organizationName: word(128),
    contactNumber: word(16),
    emailId: z.string().trim().max(128).email(),
    address: prose(256).min(1),
    policyGroup: word(128),
  }),
  uploadPartnerCertificate: z.object({ partnerId: id, certificateData: prose(16_384).min(1), partnerDomain: word(16) }),
  partnerCertificate: z.object({ partnerId: id }),
  updatePartnerStatus: z.object({ partnerId: id, status: partnerStatus }),
  requestPartnerApiKey: z.object({ partnerId: id, policyName: word(128), useCaseDescription: prose(512).nullish() }),
  apiKeyRequestState: z.object({ partnerId: id, apiKeyReqId: id }),
  decideApiKeyRequest: z.object({ apiKeyReqId: id, status: oneOf(DECISIONS) }),
  updatePartnerApiKeyStatus: z.object({ partnerId: id, partnerApiKey: word(128), status: partnerStatus }),
  changePartnerApiKeyPolicy: z.object({ partnerId: id, partnerApiKey: word(128), oldPolicyID: id, newPolicyID: id }),
  partners: z.object({ ...page, filter: z.object({ status: z.string().nullish(), policyGroupId: identifier(64).nullish() }).nullish() }),
  apiKeyRequests: z.object({ ...page, filter: z.object({ status: z.string().nullish(), partnerId: identifier(64).nullish() }).nullish() }),
};

/** Who reads partner records; each sees only its scope (service.ts). */
const PARTNER_READERS = access.roles('GLOBAL_ADMIN', 'PARTNER_ADMIN', 'PARTNERMANAGER', 'PARTNER');
const PARTNERS = access.roles('PARTNER');

const PARTNER_STATUS: Record<string, PartnerStatus> = { Active: 'ACTIVE', 'De-Active': 'DE_ACTIVE' };
const REQUEST_STATUS: Record<string, ApiKeyRequestStatus> = { 'in-progress': 'IN_PROGRESS', Approved: 'APPROVED', Rejected: 'REJECTED' };
/** The stored value of a graph enum value. */
const stored = <T extends string>(map: Record<string, T>, value: T | null | undefined) => (value ? Object.keys(map).find((key) => map[key] === value) : null);
const userRef = (userId: string | null) => (userId ? { userId } : null);

/** Partners, API key requests and keys. */
export const partnersArea = defineArea({
  name: 'partners',
  desk: 'partnerManager',
  desks: {
    'Query.apiKeyRequestState': 'partner',
    'Query.partnerPlatformCertificate': 'partner',
    'Mutation.registerPartner': 'partner',
    'Mutation.requestPartnerApiKey': 'partner',
    'Mutation.uploadPartnerCertificate': 'partner',
    'Query.partnerCertificate': 'partner',
  },
  access: {
    'Query.apiKeyRequestState': PARTNER_READERS,
    'Query.managedPartners': PARTNER_MANAGERS,
    'Query.partnerPlatformCertificate': PARTNER_READERS,
    'Query.partners': PARTNER_READERS,
    'Query.partnerCertificate': PARTNER_READERS,
    'Mutation.uploadPartnerCertificate': PARTNER_READERS,
    'Query.apiKeyRequests': PARTNER_READERS,
    'Mutation.registerPartner': PARTNERS,
    'Mutation.updatePartnerStatus': PARTNER_MANAGERS,
    'Mutation.requestPartnerApiKey': PARTNERS,
    'Mutation.decideApiKeyRequest': PARTNER_MANAGERS,
    'Mutation.updatePartnerApiKeyStatus': PARTNER_MANAGERS,
    'Mutation.changePartnerApiKeyPolicy': PARTNER_MANAGERS,
    'Partner.__resolveReference': PARTNER_READERS,
    'ApiKeyRequest.__resolveReference': PARTNER_READERS,
    'ApiKey.__resolveReference': PARTNER_READERS,
  },
  schemas: partnersSchemas,
  codeFor: (_field, missing) => (missing ? 'PMS_COR_001' : 'PMS_COR_002'),
  services: (deps, settings) => {
    const partners = new PartnerService(deps.prisma, deps.clock, deps.masterKey, settings, deps.services.keys, deps.services.partnerCertificates);
    const partnerReach: PartnerReach = {
      // The partner desk's admission (partner's own calls; managers and admins at theirs), then the scope: the rules of GET /partners/{id}/certificate.
      reachedPartners: async (caller, partnerIds) => {
        try {
          await deps.services.partnerCallers.admit(caller, 'partner');
        } catch (error) {
          if (error instanceof PlatformError) return new Set<string>();
          throw error;
        }
        return partners.reachedPartners(caller, partnerIds);
      },
    };
    return { partners, partnerReach };
  },
  resolvers: (deps) => {
    const { partners } = deps.services;
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
      loader(context, 'partner.request', async (ids: readonly string[]) => partners.requestsByIds(await scope(context), ids));
    const keyOf = (context: RequestContext) =>
      loader(context, 'partner.apiKey', async (ids: readonly string[]) => partners.apiKeysByIds(await scope(context), ids));
    const keyOfRequest = (context: RequestContext) =>
      loader(context, 'partner.apiKeyByRequest', async (ids: readonly string[]) => partners.apiKeysByRequest(await scope(context), ids));
    const caller = (context: RequestContext) => context.principal();
    return {
      Query: {
        apiKeyRequestState: async (_, args, context) => partners.requestStatus(await caller(context), args.partnerId, args.apiKeyReqId),
        managedPartners: async (_, _args, context) => partners.managedPartners(await caller(context)),
        partnerPlatformCertificate: () => partners.platformCertificate(),
        partnerCertificate: async (_, args, context) => partners.certificate(await caller(context), args.partnerId),
        partners: async (_, args, context) =>
          partners.partners(await scope(context), args, { status: stored(PARTNER_STATUS, args.filter?.status), policyGroupId: args.filter?.policyGroupId }),
        apiKeyRequests: async (_, args, context) =>
          partners.apiKeyRequests(await scope(context), args, { status: stored(REQUEST_STATUS, args.filter?.status), partnerId: args.filter?.partnerId }),
      },
      Mutation: {
        registerPartner: async (_, args, context) => partners.register(await caller(context), args),
        uploadPartnerCertificate: async (_, args, context) =>
          partners.uploadCertificate(await caller(context), args.partnerId, args.certificateData, args.partnerDomain),
        updatePartnerStatus: async (_, args, context) => partners.updatePartnerStatus(await caller(context), args.partnerId, args.status),
        requestPartnerApiKey: async (_, args, context) =>
          partners.requestApiKey(await caller(context), args.partnerId, args.policyName, args.useCaseDescription),
        decideApiKeyRequest: async (_, args, context) => partners.decide(await caller(context), args.apiKeyReqId, args.status),
        updatePartnerApiKeyStatus: async (_, args, context) =>
          partners.updateApiKeyStatus(await caller(context), args.partnerId, args.partnerApiKey, args.status),
        changePartnerApiKeyPolicy: async (_, args, context) =>
          partners.changeKeyPolicy(await caller(context), args.partnerId, args.partnerApiKey, args.oldPolicyID, args.newPolicyID),
      },
      Partner: {
        __resolveReference: (ref, context) => partnerOf(context)(ref.id),
        status: (row) => PARTNER_STATUS[row.status] ?? 'DE_ACTIVE',
        login: (row) => userRef(row.userId),
        createdBy: (row) => ({ userId: row.createdBy }),
        updatedBy: (row) => userRef(row.updatedBy),
      },
      ApiKeyRequest: {
        __resolveReference: (ref, context) => requestOf(context)(ref.id),
        partner: (row, _, context) => partnerOf(context)(row.partnerId),
        status: (row) => REQUEST_STATUS[row.status] ?? 'IN_PROGRESS',
        decidedBy: (row) => userRef(row.decidedBy),
        apiKey: (row, _, context) => keyOfRequest(context)(row.id),
        createdBy: (row) => ({ userId: row.createdBy }),
      },
      ApiKey: {
        __resolveReference: (ref, context) => keyOf(context)(ref.id),
        partner: (row, _, context) => partnerOf(context)(row.partnerId),
        status: (row) => PARTNER_STATUS[row.status] ?? 'DE_ACTIVE',
        createdBy: (row) => ({ userId: row.createdBy }),
        updatedBy: (row) => userRef(row.updatedBy),
      },
    };
  },
});

import { access } from '../../../lib/roles.js';
import type { PartnerReach } from '../../keys/partner-access.js';
import { PARTNER_MANAGERS } from '../access.js';
import { defineArea } from '../area.js';
import { codeFor } from '../inputs.js';
import { ApiKeyService } from './api-keys.js';
import { partnersSchemas } from './inputs.js';
import { partnerReach, PartnerScopes } from './reach.js';
import { partnersResolvers } from './resolvers.js';
import { PartnerService } from './service.js';
import { partnersStorageOf } from './storage.js';

declare module '../../../lib/deps.js' {
  interface PlatformServices {
    /** Auth/E-KYC partners and their certificates (findApiKey: a key by its clear value) */
    partners: PartnerService;
    /** partners' API key requests and keys */
    partnerApiKeys: ApiKeyService;
    /** which partners a caller reaches, admitted as at partner management's desk: what the key store asks of a partner's certificate */
    partnerReach: PartnerReach;
  }
}

/** Who reads partner records; each sees only its scope (reach.ts). */
const PARTNER_READERS = access.roles('GLOBAL_ADMIN', 'PARTNER_ADMIN', 'PARTNERMANAGER', 'PARTNER');
const PARTNERS = access.roles('PARTNER');

/**
 * The rows of Viewer (the auth subgraph's caller, extended here), outside the
 * desks: any signed-in caller asks for `partner`, which is null unless the
 * caller is a partner's login, admitted at the partner desk by the resolver
 * (resolvers.ts, viewerResolvers).
 */
export const viewerAccess = {
  'Viewer.__resolveReference': access.AUTHENTICATED,
  'Viewer.partner': access.AUTHENTICATED,
};

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
    // Lists and links under the records: each read through the caller's scope again, whichever path reached the record.
    'Partner.apiKeyRequests': PARTNER_READERS,
    'Partner.apiKeys': PARTNER_READERS,
    'ApiKeyRequest.policy': PARTNER_READERS,
    'ApiKey.policy': PARTNER_READERS,
  },
  schemas: partnersSchemas,
  codeFor,
  services: (deps, settings) => {
    const { clock, events } = deps;
    const storage = partnersStorageOf(deps.prisma);
    const scopes = new PartnerScopes(storage, deps.services.policyGroups);
    const apiKeys = new ApiKeyService(storage, scopes, deps.services.policies, clock, deps.masterKey, settings, events);
    const partners = new PartnerService({
      storage,
      scopes,
      groups: deps.services.policyGroups,
      apiKeys,
      keys: deps.services.keys,
      certificates: deps.services.partnerCertificates,
      clock,
      events,
    });
    const reach = partnerReach(deps.services.partnerCallers, scopes);
    // The key manager reads and replaces partners' certificates for whoever reaches the partner: partner management's answer, plugged into it.
    deps.services.partnerReachPort.plug(reach);
    return { partners, partnerApiKeys: apiKeys, partnerReach: reach };
  },
  resolvers: partnersResolvers,
});

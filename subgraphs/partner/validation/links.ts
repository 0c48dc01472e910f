import type { LicenseService } from '../../license/service.js';
import type { MispRow, MispService } from '../misps/service.js';
import type { ApiKeyService } from '../partners/api-keys.js';
import type { PartnerService } from '../partners/service.js';
import type { PartnerApiKey } from '../partners/storage.js';
import type { PolicyLink, PolicyService } from '../policies/service.js';

/** Every link of a validation, each null when missing. */
export interface Links {
  license: { mispId: string; status: string; expiresAt: Date } | null;
  misp: Pick<MispRow, 'status' | 'isActive'> | null;
  partner: { id: string; organizationName: string; status: string } | null;
  key: Pick<PartnerApiKey, 'partnerId' | 'status' | 'expiresAt'> | null;
  policy: Pick<PolicyLink, 'id' | 'name' | 'description' | 'policies' | 'isActive' | 'policyGroupId' | 'groupActive'> | null;
}

/** Reads the links of a MISP license key, a partner and an API key (clear values). */
export type ReadLinks = (mispLicenseKey: string, partnerId: string, partnerApiKey: string) => Promise<Links>;

/** Where each link is kept: the license key manager, and each area of partner management. */
export interface LinkOwners {
  license: Pick<LicenseService, 'find'>;
  misps: Pick<MispService, 'find'>;
  partners: Pick<PartnerService, 'find'>;
  apiKeys: Pick<ApiKeyService, 'findApiKey'>;
  policies: Pick<PolicyService, 'link'>;
}

/**
 * The links read through their owners' services, each by a unique key, in
 * two rounds of lookups that run together: the license key, the partner and
 * the API key; then what the first and last point at (the MISP, the policy
 * with its group).
 */
export function linksThrough(owners: LinkOwners): ReadLinks {
  return async (mispLicenseKey, partnerId, partnerApiKey) => {
    const [license, partner, key] = await Promise.all([
      owners.license.find(mispLicenseKey),
      owners.partners.find(partnerId),
      owners.apiKeys.findApiKey(partnerApiKey),
    ]);
    const [misp, policy] = await Promise.all([license ? owners.misps.find(license.mispId) : null, key ? owners.policies.link(key.policyId) : null]);
    return { license, misp, partner, key, policy };
  };
}

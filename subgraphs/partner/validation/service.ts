import type { Clock } from '../../../lib/time.js';
import type { Principal } from '../../../lib/tokens.js';
import type { LicenseService } from '../../license/service.js';
import { partnerErrors } from '../errors.js';
import { API_KEY_LENGTH, type ApiKeyService } from '../partners/api-keys.js';
import type { PartnerService } from '../partners/service.js';
import { readContent, type PolicyContent } from '../policies/content.js';
import type { LinksCache } from './links-cache.js';
import type { Links, ReadLinks } from './links.js';

/** What validatePartnerMisp answers: the policy mapped to the partner's key. */
export interface PartnerMispPolicy {
  policyId: string;
  policyName: string;
  policyDescription: string;
  policyStatus: boolean;
  policy: { policyId: string; policies: PolicyContent };
  partnerId: string;
  partnerName: string;
}

/** Who may ask about any partner: ID authentication, which validates on every authentication, and partner management's admins. */
const UNSCOPED: readonly string[] = ['ID_AUTHENTICATION', 'GLOBAL_ADMIN', 'PARTNER_ADMIN'];
type Caller = Pick<Principal, 'subject' | 'roles'>;

const API_KEY_PATTERN = new RegExp(`^[A-Za-z0-9]{${API_KEY_LENGTH}}$`);

/** The spec's checks, in its order, on the links read at `now`: the policy, or the first failing link's code. */
export function checkLinks(links: Links, now: Date, partnerId: string, partnerApiKey: string): PartnerMispPolicy {
  const { license, misp, partner, key, policy } = links;
  if (!license) throw partnerErrors.mispLicenseUnknown();
  if (license.status !== 'ACTIVE') throw partnerErrors.mispBlocked(`the key is ${license.status}`);
  if (license.expiresAt <= now) throw partnerErrors.mispLicenseExpired();
  if (!misp) throw partnerErrors.mispNotFound(license.mispId);
  if (misp.status !== 'Approved') throw partnerErrors.mispLicenseInvalid();
  if (!misp.isActive) throw partnerErrors.mispBlocked('the MISP is deactivated');
  if (!partner) throw partnerErrors.partnerNotFound(partnerId);
  if (partner.status !== 'Active') throw partnerErrors.partnerNotActive();
  if (!API_KEY_PATTERN.test(partnerApiKey.trim()) || !key) throw partnerErrors.apiKeyNotFound();
  if (key.status !== 'Active' || key.expiresAt <= now) throw partnerErrors.apiKeyNotFound();
  if (key.partnerId !== partner.id) throw partnerErrors.apiKeyNotFound();
  if (!policy) throw partnerErrors.policyMissing('of the API key');
  if (!policy.isActive) throw partnerErrors.policyNotActive();
  if (!policy.groupActive) throw partnerErrors.policyGroupNotActive();
  return {
    policyId: policy.id,
    policyName: policy.name,
    policyDescription: policy.description,
    policyStatus: true,
    policy: { policyId: policy.id, policies: readContent(policy.policies) },
    partnerId: partner.id,
    partnerName: partner.organizationName,
  };
}

/** Whether the links pass the checks now. */
const passes = (links: Links, now: Date, partnerId: string, partnerApiKey: string): boolean => {
  try {
    checkLinks(links, now, partnerId, partnerApiKey);
    return true;
  } catch {
    return false;
  }
};

/** The HMACs the cache is keyed by: no clear key is kept in memory. */
export interface LinkHashes {
  license: Pick<LicenseService, 'hashOf'>;
  apiKeys: Pick<ApiKeyService, 'hashOf'>;
}

/**
 * validatePartnerMisp, which ID authentication calls on every
 * authentication: the MISP's license key, the MISP, the partner, its API key
 * and the key's policy, checked in the spec's order; the first link that
 * fails gives its code. The links of a validation that passed are cached
 * until any link changes (LinksCache), and expiries are checked against the
 * clock on every call.
 */
export class PartnerValidationService {
  constructor(
    private readonly readLinks: ReadLinks,
    private readonly hashes: LinkHashes,
    private readonly partners: Pick<PartnerService, 'managerGroupsOf'>,
    private readonly clock: Clock,
    private readonly cache: LinksCache<Links>,
  ) {}

  start(database: Parameters<LinksCache<Links>['start']>[0]): Promise<void> {
    return this.cache.start(database);
  }

  stop(): Promise<void> {
    return this.cache.stop();
  }

  /**
   * ID authentication and admins are answered about any partner; a partner
   * manager only about the partners of the groups it manages (checked
   * first, so that it learns nothing of another group's links), and only
   * with a policy of those groups.
   */
  async validate(caller: Caller, partnerId: string, partnerApiKey: string, mispLicenseKey: string): Promise<PartnerMispPolicy> {
    const groups = caller.roles.some((role) => UNSCOPED.includes(role)) ? null : await this.partners.managerGroupsOf(caller, partnerId);
    const links = await this.cache.through(
      `${this.hashes.license.hashOf(mispLicenseKey.trim())}\u0000${partnerId}\u0000${this.hashes.apiKeys.hashOf(partnerApiKey.trim())}`,
      () => this.readLinks(mispLicenseKey, partnerId, partnerApiKey),
      (read) => passes(read, this.clock.now(), partnerId, partnerApiKey),
    );
    const policy = checkLinks(links, this.clock.now(), partnerId, partnerApiKey);
    if (groups && !groups.includes(links.policy?.policyGroupId ?? '')) throw partnerErrors.apiKeyOutsideGroup();
    return policy;
  }
}

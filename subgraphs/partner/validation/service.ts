import type { PrismaClient } from '../../../generated/prisma/client.js';
import type { Clock } from '../../../lib/time.js';
import type { Principal } from '../../../lib/tokens.js';
import type { LicenseService } from '../../license/service.js';
import type { LinksCache } from './links-cache.js';
import { partnerErrors } from '../errors.js';
import { API_KEY_LENGTH, type PartnerService } from '../partners/service.js';
import { readContent, type PolicyContent } from '../policies/content.js';

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

/** Every link of a validation, read in one statement (one row, whatever is missing). */
interface Links {
  licenseMispId: string | null;
  licenseStatus: string | null;
  licenseExpiresAt: Date | null;
  mispStatus: string | null;
  mispActive: boolean | null;
  partnerId: string | null;
  partnerName: string | null;
  partnerStatus: string | null;
  keyPartnerId: string | null;
  keyStatus: string | null;
  keyExpiresAt: Date | null;
  policyId: string | null;
  policyName: string | null;
  policyDescription: string | null;
  policies: unknown;
  policyActive: boolean | null;
  policyGroupId: string | null;
  groupActive: boolean | null;
}

/** Who may ask about any partner: ID authentication, which validates on every authentication, and partner management's admins. */
const UNSCOPED: readonly string[] = ['ID_AUTHENTICATION', 'GLOBAL_ADMIN', 'PARTNER_ADMIN'];
type Caller = Pick<Principal, 'subject' | 'roles'>;

const API_KEY_PATTERN = new RegExp(`^[A-Za-z0-9]{${API_KEY_LENGTH}}$`);

/**
 * validatePartnerMisp, which ID authentication calls on every
 * authentication: the MISP's license key, the MISP, the partner, its API key
 * and the key's policy, checked in the spec's order; the first link that
 * fails gives its code. All links come from one indexed statement; the
 * links of a validation that passed are cached until any link changes
 * (LinksCache), and expiries are checked against the clock on every call.
 */
export class PartnerValidationService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
    private readonly license: LicenseService,
    private readonly partners: PartnerService,
    private readonly cache: LinksCache<Links>,
  ) {}

  start(database: Parameters<LinksCache<Links>['start']>[0]): Promise<void> {
    return this.cache.start(database);
  }

  stop(): Promise<void> {
    return this.cache.stop();
  }

  private links(licenseHash: string, partnerId: string, keyHash: string): Promise<Links[]> {
    return this.prisma.$queryRaw<Links[]>`
      SELECT lk."mispId" AS "licenseMispId", lk.status AS "licenseStatus", lk."expiresAt" AS "licenseExpiresAt",
             m.status AS "mispStatus", m."isActive" AS "mispActive",
             p.id AS "partnerId", p."organizationName" AS "partnerName", p.status AS "partnerStatus",
             k."partnerId" AS "keyPartnerId", k.status AS "keyStatus", k."expiresAt" AS "keyExpiresAt",
             pol.id AS "policyId", pol.name AS "policyName", pol.description AS "policyDescription", pol.policies AS "policies",
             pol."isActive" AS "policyActive", pol."policyGroupId" AS "policyGroupId", g."isActive" AS "groupActive"
      FROM (SELECT 1) AS one
      LEFT JOIN license_key lk ON lk."keyHash" = ${licenseHash}
      LEFT JOIN pms_misp m ON m.id = lk."mispId"
      LEFT JOIN pms_partner p ON p.id = ${partnerId}
      LEFT JOIN pms_partner_api_key k ON k."keyHash" = ${keyHash}
      LEFT JOIN pms_policy pol ON pol.id = k."policyId"
      LEFT JOIN pms_policy_group g ON g.id = pol."policyGroupId"`;
  }

  /**
   * ID authentication and admins are answered about any partner; a partner
   * manager only about the partners of the groups it manages (checked
   * first, so that it learns nothing of another group's links), and only
   * with a policy of those groups.
   */
  async validate(caller: Caller, partnerId: string, partnerApiKey: string, mispLicenseKey: string): Promise<PartnerMispPolicy> {
    const groups = caller.roles.some((role) => UNSCOPED.includes(role)) ? null : await this.partners.managerGroupsOf(caller, partnerId);
    const answer = await this.answer(partnerId, partnerApiKey, mispLicenseKey);
    if (groups && !groups.includes(answer.policyGroupId)) throw partnerErrors.apiKeyOutsideGroup();
    return answer.policy;
  }

  private async answer(partnerId: string, partnerApiKey: string, mispLicenseKey: string): Promise<{ policy: PartnerMispPolicy; policyGroupId: string }> {
    const licenseHash = this.license.hashOf(mispLicenseKey.trim());
    const keyHash = this.partners.hashOf(partnerApiKey.trim());
    const row = await this.cache.through(
      `${licenseHash}\u0000${partnerId}\u0000${keyHash}`,
      async () => (await this.links(licenseHash, partnerId, keyHash))[0]!,
      (links) => {
        try {
          this.check(links, partnerId, partnerApiKey);
          return true;
        } catch {
          return false;
        }
      },
    );
    return { policy: this.check(row, partnerId, partnerApiKey), policyGroupId: row.policyGroupId ?? '' };
  }

  /** The spec's checks, in its order, on the links read: the policy, or the first failing link's code. */
  private check(row: Links, partnerId: string, partnerApiKey: string): PartnerMispPolicy {
    const now = this.clock.now();
    if (!row.licenseMispId) throw partnerErrors.mispLicenseUnknown();
    if (row.licenseStatus !== 'ACTIVE') throw partnerErrors.mispBlocked(`the key is ${row.licenseStatus}`);
    if (!row.licenseExpiresAt || row.licenseExpiresAt <= now) throw partnerErrors.mispLicenseExpired();
    if (!row.mispStatus) throw partnerErrors.mispNotFound(row.licenseMispId);
    if (row.mispStatus !== 'Approved') throw partnerErrors.mispLicenseInvalid();
    if (!row.mispActive) throw partnerErrors.mispBlocked('the MISP is deactivated');
    if (!row.partnerId) throw partnerErrors.partnerNotFound(partnerId);
    if (row.partnerStatus !== 'Active') throw partnerErrors.partnerNotActive();
    if (!API_KEY_PATTERN.test(partnerApiKey.trim()) || !row.keyStatus) throw partnerErrors.apiKeyNotFound();
    if (row.keyStatus !== 'Active' || !row.keyExpiresAt || row.keyExpiresAt <= now) throw partnerErrors.apiKeyNotFound();
    if (row.keyPartnerId !== row.partnerId) throw partnerErrors.apiKeyNotFound();
    if (!row.policyId) throw partnerErrors.policyMissing('of the API key');
    if (!row.policyActive) throw partnerErrors.policyNotActive();
    if (!row.groupActive) throw partnerErrors.policyGroupNotActive();
    const policies = readContent(row.policies as Parameters<typeof readContent>[0]);
    return {
      policyId: row.policyId,
      policyName: row.policyName ?? '',
      policyDescription: row.policyDescription ?? '',
      policyStatus: true,
      policy: { policyId: row.policyId, policies },
      partnerId: row.partnerId,
      partnerName: row.partnerName ?? '',
    };
  }
}

import { PlatformError } from '../../../lib/errors.js';
import type { PartnerReach } from '../../keys/partner-access.js';
import type { PartnerCallers } from '../callers.js';
import { partnerErrors } from '../errors.js';
import type { PolicyGroupService } from '../policies/groups-service.js';
import { managesPartners, scopeOf, sees, type Caller, type Scope } from './scope.js';
import type { PartnerRow, PartnersStorage } from './storage.js';

/**
 * Which partners a caller reaches: a partner its own record, a partner
 * manager those of the policy groups it manages, an admin every one. Every
 * call of the partners area goes through one of these rules.
 */
export class PartnerScopes {
  constructor(
    private readonly storage: Pick<PartnersStorage, 'partnerById' | 'partnersByIds'>,
    private readonly groups: Pick<PolicyGroupService, 'managedBy'>,
  ) {}

  /** The caller's scope: the groups are looked up only for a partner manager. */
  async scope(caller: Caller): Promise<Scope> {
    return scopeOf(caller, managesPartners(caller) ? await this.groups.managedBy(caller.subject) : []);
  }

  /** The caller's own partner (or one it manages, or any for an admin): PMS_PRT_005 when unknown, KER-ATH-403 when another's. */
  async ownPartner(caller: Caller, partnerId: string): Promise<PartnerRow> {
    const partner = await this.storage.partnerById(partnerId);
    if (!partner) throw partnerErrors.partnerUnknown(partnerId);
    if (!sees(await this.scope(caller), partner)) throw partnerErrors.notYourPartner();
    return partner;
  }

  /** The groups of a partner manager: PMS_PMP_001 when it manages none (it is no partner manager of any group). */
  async managerScope(caller: Caller): Promise<Scope> {
    const scope = await this.scope(caller);
    if (!scope.groupIds.length) throw partnerErrors.partnerManagerUnknown(`${caller.subject} manages no policy group`);
    return scope;
  }

  /** A partner of one of the scope's groups: PMS_PMP_005 when unknown, `denied` when outside them. */
  async partnerIn(scope: Scope, partnerId: string, denied: () => PlatformError): Promise<PartnerRow> {
    const partner = await this.storage.partnerById(partnerId);
    if (!partner) throw partnerErrors.partnerNotFound(partnerId);
    if (!scope.groupIds.includes(partner.policyGroupId)) throw denied();
    return partner;
  }

  /** A partner of one of the manager's groups: PMS_PMP_001 for a manager of none, then as `partnerIn`. */
  async managedPartner(caller: Caller, partnerId: string, denied: () => PlatformError): Promise<PartnerRow> {
    return this.partnerIn(await this.managerScope(caller), partnerId, denied);
  }

  /**
   * The groups of a partner manager that manages the partner: PMS_PMP_001
   * when it manages none, PMS_PMP_005 for an unknown partner, PMS_PMP_009
   * for a partner of another group (validatePartnerMisp answers a manager
   * only about its own groups' partners and their keys).
   */
  async managerGroupsOf(caller: Caller, partnerId: string): Promise<readonly string[]> {
    const scope = await this.managerScope(caller);
    await this.partnerIn(scope, partnerId, partnerErrors.apiKeyOutsideGroup);
    return scope.groupIds;
  }

  /** The partners among `partnerIds` the caller reaches (one query). */
  async reachedPartners(caller: Caller, partnerIds: readonly string[]): Promise<Set<string>> {
    return new Set((await this.storage.partnersByIds(await this.scope(caller), partnerIds)).map((row) => row.id));
  }
}

/**
 * What the key store asks of a partner's certificate (GET
 * /partners/{id}/certificate): the partner desk's admission (partners' own
 * calls; managers and admins at theirs), then the scope.
 */
export function partnerReach(callers: PartnerCallers, scopes: PartnerScopes): PartnerReach {
  return {
    reachedPartners: async (caller, partnerIds) => {
      try {
        await callers.admit(caller, 'partner');
      } catch (error) {
        if (error instanceof PlatformError) return new Set<string>();
        throw error;
      }
      return scopes.reachedPartners(caller, partnerIds);
    },
  };
}

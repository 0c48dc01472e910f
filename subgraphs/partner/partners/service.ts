import { randomUUID } from 'node:crypto';
import type { EventBus } from '../../../lib/events.js';
import type { Connection, PageArgs } from '../../../lib/graph/connection.js';
import type { Clock } from '../../../lib/time.js';
import type { PartnerCertificates } from '../../keys/partner-certificates.js';
import type { KeysService } from '../../keys/service.js';
import { partnerErrors } from '../errors.js';
import { wholeList } from '../rows.js';
import type { PolicyGroupService } from '../policies/groups-service.js';
import type { ApiKeyRow, ApiKeyService } from './api-keys.js';
import type { PartnerScopes } from './reach.js';
import { isPartnerLogin, sees, type Caller, type Scope, type Signed } from './scope.js';
import type { ApiKeyRequestRow, PartnerApiKey, PartnerFilter, PartnerRow, PartnersStorage } from './storage.js';

export type { ApiKeyRequestRow, ApiKeyRow, PartnerFilter, PartnerRow };

export const PARTNER_STATUSES = ['Active', 'De-Active'] as const;

export interface Registration {
  partnerId?: string | null;
  organizationName: string;
  contactNumber: string;
  emailId: string;
  address: string;
  policyGroup: string;
}

/** What partners need beside their own tables. */
export interface PartnerServiceDeps {
  storage: Pick<
    PartnersStorage,
    'partnerOfUser' | 'createPartner' | 'setPartnerStatus' | 'partnersInGroups' | 'partnersPage' | 'partnersByIds' | 'partnerById'
  >;
  scopes: PartnerScopes;
  /** the group a partner registers in */
  groups: Pick<PolicyGroupService, 'byName'>;
  /** the keys of the partners' API, looked up by clear value */
  apiKeys: Pick<ApiKeyService, 'findApiKey'>;
  keys: Pick<KeysService, 'masterCertificate'>;
  certificates: Pick<PartnerCertificates, 'upload' | 'current' | 'held'>;
  clock: Clock;
  events: Pick<EventBus, 'publish'>;
}

/**
 * Auth/E-KYC partners and their certificates. A partner acts only on its own
 * record (Partner.userId is its login); a partner manager only on the
 * partners of the policy groups it manages (reach.ts). A change of status is
 * published (`partner.changed`) once written. Their API keys are
 * api-keys.ts's.
 */
export class PartnerService {
  constructor(private readonly deps: PartnerServiceDeps) {}

  scope(caller: Caller): Promise<Scope> {
    return this.deps.scopes.scope(caller);
  }

  /** A partner by id, or null (validatePartnerMisp's link). */
  find(partnerId: string): Promise<PartnerRow | null> {
    return this.deps.storage.partnerById(partnerId);
  }

  /** The row of an API key by the clear key, whatever its state (validation checks state and owner in its own order). */
  findApiKey(clearKey: string): Promise<PartnerApiKey | null> {
    return this.deps.apiKeys.findApiKey(clearKey);
  }

  /** The partners among `partnerIds` the caller reaches: its own, those of the groups it manages, every one for an admin (one query). */
  reachedPartners(caller: Caller, partnerIds: readonly string[]): Promise<Set<string>> {
    return this.deps.scopes.reachedPartners(caller, partnerIds);
  }

  /** The groups of a partner manager that manages the partner (reach.ts). */
  managerGroupsOf(caller: Caller, partnerId: string): Promise<readonly string[]> {
    return this.deps.scopes.managerGroupsOf(caller, partnerId);
  }

  // --- the partner's own calls

  async register(caller: Caller, input: Registration): Promise<{ partnerId: string; status: string }> {
    const { storage, certificates, clock } = this.deps;
    const group = await this.deps.groups.byName(input.policyGroup);
    if (!group?.isActive) throw partnerErrors.invalid('policyGroup', `no active policy group named ${input.policyGroup}`);
    if (await storage.partnerOfUser(caller.subject)) throw partnerErrors.invalid('request', 'this login already has a partner');
    const id = input.partnerId ?? randomUUID();
    const taken = () => partnerErrors.invalid('partnerId', 'partner id or login already registered');
    // An id under which the key store keeps another domain's certificate (the ABIS partner's) is not a partner's to claim, with its certificate.
    if (await certificates.held(id)) throw taken();
    const row = await storage.createPartner({
      id,
      userId: caller.subject,
      organizationName: input.organizationName,
      contactNumber: input.contactNumber,
      emailId: input.emailId,
      address: input.address,
      policyGroupId: group.id,
      status: 'Active',
      createdBy: caller.subject,
      createdAt: clock.now(),
    });
    // A racing registration by the same login, or a partner id already taken.
    if (!row) throw taken();
    return { partnerId: row.id, status: row.status };
  }

  /**
   * The partner's certificate, checked and kept by the key manager (KER-PCM
   * codes), answered certified by partner management's key; its partner
   * manager or an admin may upload it too. A new upload replaces the last.
   */
  async uploadCertificate(caller: Caller, partnerId: string, certificateData: string, partnerDomain: string) {
    await this.deps.scopes.ownPartner(caller, partnerId);
    return { ...(await this.deps.certificates.upload(partnerId, certificateData, partnerDomain)), timestamp: this.deps.clock.now(), partnerId };
  }

  /** The partner's certificate in force as partner management certified it: KER-PCM-012 before any upload. */
  async certificate(caller: Caller, partnerId: string) {
    await this.deps.scopes.ownPartner(caller, partnerId);
    const { certificateId, signedCertificateData } = await this.deps.certificates.current(partnerId);
    return { certificateId, certificateData: signedCertificateData, timestamp: this.deps.clock.now() };
  }

  /** The platform's certificate for partners: that of partner management's own key (application PMS). */
  async platformCertificate(): Promise<string> {
    return (await this.deps.keys.masterCertificate('PMS')).certificate;
  }

  // --- the partner manager's calls

  async updatePartnerStatus(caller: Caller, partnerId: string, status: string) {
    await this.deps.scopes.managedPartner(caller, partnerId, partnerErrors.partnerStatusDenied);
    await this.deps.storage.setPartnerStatus(partnerId, status, { by: caller.subject, at: this.deps.clock.now() });
    await this.deps.events.publish('partner.changed', { partnerId });
    const partner = await this.deps.storage.partnerById(partnerId);
    return { message: status === 'Active' ? 'Partner activated successfully' : 'Partner de-activated successfully', partner };
  }

  /**
   * The caller's own partner record (Viewer.partner): for a partner's login
   * (a user holding PARTNER), the partner it registered, seen through its
   * scope; null for any other caller, and before it registers.
   */
  async ownRecord(caller: Signed): Promise<PartnerRow | null> {
    if (!isPartnerLogin(caller)) return null;
    const row = await this.deps.storage.partnerOfUser(caller.subject);
    return row && sees(await this.scope(caller), row) ? row : null;
  }

  /** The partners of the manager's groups (GET /pmpartners): PMS_PMP_004 when none. */
  async managedPartners(caller: Caller): Promise<PartnerRow[]> {
    const scope = await this.deps.scopes.managerScope(caller);
    const rows = await wholeList('partners', 'partners', (take) => this.deps.storage.partnersInGroups(scope.groupIds, take));
    if (!rows.length) throw partnerErrors.noPartnersInGroup();
    return rows;
  }

  // --- the portal graph, every read through the caller's scope

  partners(scope: Scope, page: PageArgs, filter?: PartnerFilter | null): Promise<Connection<PartnerRow>> {
    return this.deps.storage.partnersPage(scope, page, filter);
  }

  async partnersByIds(scope: Scope, ids: readonly string[]): Promise<Map<string, PartnerRow>> {
    return new Map((await this.deps.storage.partnersByIds(scope, ids)).map((row) => [row.id, row]));
  }
}

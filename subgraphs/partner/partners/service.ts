import { randomUUID } from 'node:crypto';
import { isUniqueViolation } from '../../../lib/db/unique.js';
import { lookupHash, randomAlphanumeric } from '../../../lib/secrets.js';
import type { ApiKeyRequest as ApiKeyRequestRow, Partner as PartnerRow, PartnerApiKey, Prisma, PrismaClient } from '../../../generated/prisma/client.js';
import { PlatformError } from '../../../lib/errors.js';
import { connection, newestFirst, pageArgs, type Connection, type PageArgs } from '../../../lib/graph/connection.js';
import type { MasterKey } from '../../../lib/master-key.js';
import type { Clock } from '../../../lib/time.js';
import type { Principal } from '../../../lib/tokens.js';
import type { PartnerCertificates } from '../../keys/partner-certificates.js';
import type { KeysService } from '../../keys/service.js';
import { partnerErrors } from '../errors.js';
import type { PartnerSettings } from '../settings.js';
import { scopeOf, type Scope } from './scope.js';

export type { ApiKeyRequestRow, PartnerRow };
/** An API key as the graph sees it: never the key, only its hint. */
export type ApiKeyRow = Omit<PartnerApiKey, 'keyHash'>;

export const PARTNER_STATUSES = ['Active', 'De-Active'] as const;
export const DECISIONS = ['Approved', 'Rejected'] as const;
const IN_PROGRESS = 'in-progress';
export const API_KEY_LENGTH = 32;
const HMAC_PURPOSE = 'partner/api-key-hmac';
const DAY_MS = 86_400_000;

type Caller = Pick<Principal, 'subject' | 'roles'>;

export interface Registration {
  partnerId?: string | null;
  organizationName: string;
  contactNumber: string;
  emailId: string;
  address: string;
  policyGroup: string;
}

export interface PartnerFilter {
  status?: string | null;
  policyGroupId?: string | null;
}

export interface ApiKeyRequestFilter {
  status?: string | null;
  partnerId?: string | null;
}

const forbidden = () => new PlatformError('KER-ATH-403', 'Forbidden: not your partner record');
const withoutHash = ({ keyHash: _hash, ...row }: PartnerApiKey): ApiKeyRow => row;

/**
 * Auth/E-KYC partners, their API key requests and keys. A partner acts only on
 * its own record (Partner.userId is its login); a partner manager only on the
 * partners of the policy groups it manages. A key is shown once, on approval;
 * the database keeps its HMAC, which `findApiKey` looks keys up by.
 */
export class PartnerService {
  private readonly hmacKey: Buffer;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
    masterKey: MasterKey,
    private readonly settings: PartnerSettings,
    private readonly keys: Pick<KeysService, 'masterCertificate'>,
    private readonly certificates: Pick<PartnerCertificates, 'upload' | 'current' | 'held'>,
  ) {
    this.hmacKey = masterKey.derive(HMAC_PURPOSE);
  }

  /** The HMAC a key is stored and looked up by. */
  hashOf(key: string): string {
    return lookupHash(this.hmacKey, key);
  }

  scope(caller: Caller): Promise<Scope> {
    return scopeOf(this.prisma, caller);
  }

  /** The row of an API key by the clear key, whatever its state (validation checks state and owner in its own order). */
  findApiKey(clearKey: string): Promise<PartnerApiKey | null> {
    return this.prisma.partnerApiKey.findUnique({ where: { keyHash: this.hashOf(clearKey.trim()) } });
  }

  // --- the partner's own calls

  async register(caller: Caller, input: Registration): Promise<{ partnerId: string; status: string }> {
    const group = await this.prisma.policyGroup.findUnique({ where: { name: input.policyGroup } });
    if (!group?.isActive) throw partnerErrors.invalid('policyGroup', `no active policy group named ${input.policyGroup}`);
    if (await this.prisma.partner.findUnique({ where: { userId: caller.subject } })) throw partnerErrors.invalid('request', 'this login already has a partner');
    const id = input.partnerId ?? randomUUID();
    // An id under which the key store keeps another domain's certificate (the ABIS partner's) is not a partner's to claim, with its certificate.
    if (await this.certificates.held(id)) throw partnerErrors.invalid('partnerId', 'partner id or login already registered');
    try {
      const row = await this.prisma.partner.create({
        data: {
          id,
          userId: caller.subject,
          organizationName: input.organizationName,
          contactNumber: input.contactNumber,
          emailId: input.emailId,
          address: input.address,
          policyGroupId: group.id,
          status: 'Active',
          createdBy: caller.subject,
          createdAt: this.clock.now(),
        },
      });
      return { partnerId: row.id, status: row.status };
    } catch (error) {
      // A racing registration by the same login, or a partner id already taken.
      if (isUniqueViolation(error)) throw partnerErrors.invalid('partnerId', 'partner id or login already registered');
      throw error;
    }
  }

  /** The partners among `partnerIds` the caller reaches: its own, those of the groups it manages, every one for an admin (one query). */
  async reachedPartners(caller: Caller, partnerIds: readonly string[]): Promise<Set<string>> {
    return new Set((await this.partnersByIds(await this.scope(caller), partnerIds)).keys());
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

  /** The caller's own partner: PMS_PRT_005 when unknown, KER-ATH-403 when another's. */
  private async ownPartner(caller: Caller, partnerId: string): Promise<PartnerRow> {
    const partner = await this.prisma.partner.findUnique({ where: { id: partnerId } });
    if (!partner) throw partnerErrors.partnerUnknown(partnerId);
    const scope = await this.scope(caller);
    if (!scope.all && partner.userId !== caller.subject && !scope.groupIds.includes(partner.policyGroupId)) throw forbidden();
    return partner;
  }

  async requestApiKey(caller: Caller, partnerId: string, policyName: string, useCaseDescription: string | null | undefined) {
    const partner = await this.prisma.partner.findUnique({ where: { id: partnerId } });
    if (!partner) throw partnerErrors.partnerUnknown(partnerId);
    // Only the partner itself asks for keys.
    if (partner.userId !== caller.subject) throw forbidden();
    // A deactivated partner cannot gather keys to use once reactivated behind its manager's back.
    if (partner.status !== 'Active') throw partnerErrors.partnerNotActive();
    const policy = await this.prisma.policy.findUnique({ where: { policyGroupId_name: { policyGroupId: partner.policyGroupId, name: policyName } } });
    if (!policy) {
      const elsewhere = await this.prisma.policy.findFirst({ where: { name: policyName }, select: { id: true } });
      throw elsewhere ? partnerErrors.policyOutsideGroup() : partnerErrors.policyMissing(policyName);
    }
    if (!policy.isActive) throw partnerErrors.policyMissing(policyName);
    const row = await this.prisma.apiKeyRequest.create({
      data: {
        id: randomUUID(),
        partnerId,
        policyId: policy.id,
        useCaseDescription: useCaseDescription ?? null,
        status: IN_PROGRESS,
        createdBy: caller.subject,
        createdAt: this.clock.now(),
      },
    });
    return { apiRequestId: row.id, message: 'partnerAPIKeyRequest successfully submitted.' };
  }

  async requestStatus(caller: Caller, partnerId: string, requestId: string) {
    await this.ownPartner(caller, partnerId);
    const request = await this.prisma.apiKeyRequest.findUnique({ where: { id: requestId } });
    if (request?.partnerId !== partnerId) throw partnerErrors.apiKeyRequestUnknown(requestId);
    const key = await this.prisma.partnerApiKey.findUnique({ where: { requestId } });
    return { apiRequestId: request.id, apikeyReqStatus: request.status, partnerApiKeyHint: key?.keyHint ?? null, validityTill: key?.expiresAt ?? null };
  }

  /**
   * The partner's certificate, checked and kept by the key manager (KER-PCM
   * codes), answered certified by partner management's key; its partner
   * manager or an admin may upload it too. A new upload replaces the last.
   */
  async uploadCertificate(caller: Caller, partnerId: string, certificateData: string, partnerDomain: string) {
    await this.ownPartner(caller, partnerId);
    return { ...(await this.certificates.upload(partnerId, certificateData, partnerDomain)), timestamp: this.clock.now() };
  }

  /** The partner's certificate in force as partner management certified it: KER-PCM-012 before any upload. */
  async certificate(caller: Caller, partnerId: string) {
    await this.ownPartner(caller, partnerId);
    const { certificateId, signedCertificateData } = await this.certificates.current(partnerId);
    return { certificateId, certificateData: signedCertificateData, timestamp: this.clock.now() };
  }

  // --- the partner manager's calls

  /** The groups of a partner manager: PMS_PMP_001 when it manages none (it is no partner manager of any group). */
  private async managerScope(caller: Caller): Promise<Scope> {
    const scope = await this.scope(caller);
    if (!scope.groupIds.length) throw partnerErrors.partnerManagerUnknown(`${caller.subject} manages no policy group`);
    return scope;
  }

  /** A partner of one of the manager's groups: PMS_PMP_005 when unknown, `denied` when outside them. */
  private async managedPartner(caller: Caller, partnerId: string, denied: () => PlatformError): Promise<PartnerRow> {
    return this.partnerIn(await this.managerScope(caller), partnerId, denied);
  }

  private async partnerIn(scope: Scope, partnerId: string, denied: () => PlatformError): Promise<PartnerRow> {
    const partner = await this.prisma.partner.findUnique({ where: { id: partnerId } });
    if (!partner) throw partnerErrors.partnerNotFound(partnerId);
    if (!scope.groupIds.includes(partner.policyGroupId)) throw denied();
    return partner;
  }

  async updatePartnerStatus(caller: Caller, partnerId: string, status: string) {
    await this.managedPartner(caller, partnerId, partnerErrors.partnerStatusDenied);
    await this.prisma.partner.update({ where: { id: partnerId }, data: { status, updatedBy: caller.subject, updatedAt: this.clock.now() } });
    return { message: status === 'Active' ? 'Partner activated successfully' : 'Partner de-activated successfully' };
  }

  /**
   * Approves or rejects a pending request. The decision is a conditional
   * update of a request still in progress, so of two racing approvals one
   * decides and the other gets PMS_PMP_012; the key's unique requestId backs it.
   */
  async decide(caller: Caller, requestId: string, status: string): Promise<{ message: string; partnerAPIKey: string | null; apiKey: ApiKeyRow | null }> {
    const scope = await this.managerScope(caller);
    const request = await this.prisma.apiKeyRequest.findUnique({ where: { id: requestId } });
    if (!request) throw partnerErrors.apiKeyRequestNotFound(requestId);
    const partner = await this.prisma.partner.findUnique({ where: { id: request.partnerId } });
    if (!partner || !scope.groupIds.includes(partner.policyGroupId) || request.status !== IN_PROGRESS) throw partnerErrors.apiKeyRequestDenied();
    const now = this.clock.now();
    const clearKey = randomAlphanumeric(API_KEY_LENGTH);
    try {
      const apiKey = await this.prisma.$transaction(async (tx) => {
        const decided = await tx.apiKeyRequest.updateMany({
          where: { id: requestId, status: IN_PROGRESS },
          data: { status, decidedBy: caller.subject, decidedAt: now },
        });
        if (decided.count !== 1) throw partnerErrors.apiKeyRequestDenied();
        if (status !== 'Approved') return null;
        return tx.partnerApiKey.create({
          data: {
            keyHash: this.hashOf(clearKey),
            id: randomUUID(),
            keyHint: clearKey.slice(-4),
            partnerId: request.partnerId,
            policyId: request.policyId,
            requestId,
            status: 'Active',
            expiresAt: new Date(now.getTime() + this.settings.apiKeyDays * DAY_MS),
            createdBy: caller.subject,
            createdAt: now,
          },
        });
      });
      return apiKey
        ? { message: 'PartnerAPIKeyRequest successfully approved', partnerAPIKey: clearKey, apiKey: withoutHash(apiKey) }
        : { message: 'PartnerAPIKeyRequest successfully rejected', partnerAPIKey: null, apiKey: null };
    } catch (error) {
      if (isUniqueViolation(error)) throw partnerErrors.apiKeyRequestDenied();
      throw error;
    }
  }

  /** The partner's key by its clear value: PMS_PMP_007 when unknown or another partner's. */
  private async keyOf(partnerId: string, clearKey: string): Promise<PartnerApiKey> {
    const key = await this.findApiKey(clearKey);
    if (key?.partnerId !== partnerId) throw partnerErrors.apiKeyNotFound();
    return key;
  }

  async updateApiKeyStatus(caller: Caller, partnerId: string, clearKey: string, status: string) {
    await this.managedPartner(caller, partnerId, partnerErrors.partnerStatusDenied);
    const key = await this.keyOf(partnerId, clearKey);
    await this.prisma.partnerApiKey.update({ where: { keyHash: key.keyHash }, data: { status, updatedBy: caller.subject, updatedAt: this.clock.now() } });
    return { message: status === 'Active' ? 'Partner API Key activated successfully' : 'Partner API Key de-activated successfully' };
  }

  async changeKeyPolicy(caller: Caller, partnerId: string, clearKey: string, oldPolicyId: string, newPolicyId: string) {
    const partner = await this.managedPartner(caller, partnerId, partnerErrors.apiKeyOutsideGroup);
    const key = await this.keyOf(partnerId, clearKey);
    if (key.policyId !== oldPolicyId) throw partnerErrors.apiKeyNotOnOldPolicy();
    const policy = await this.prisma.policy.findUnique({ where: { id: newPolicyId } });
    if (!policy) throw partnerErrors.policyMissing(newPolicyId);
    if (policy.policyGroupId !== partner.policyGroupId || !policy.isActive) throw partnerErrors.policyOutsideGroup();
    // Conditional on the old policy: a concurrent move finds nothing to change.
    const moved = await this.prisma.partnerApiKey.updateMany({
      where: { keyHash: key.keyHash, policyId: oldPolicyId },
      data: { policyId: newPolicyId, updatedBy: caller.subject, updatedAt: this.clock.now() },
    });
    if (moved.count !== 1) throw partnerErrors.apiKeyNotOnOldPolicy();
    return { message: 'Partner api key mapped to the new policy successfully' };
  }

  /** The partners of the manager's groups (GET /pmpartners): PMS_PMP_004 when none. */
  async managedPartners(caller: Caller): Promise<PartnerRow[]> {
    const scope = await this.managerScope(caller);
    const rows = await this.prisma.partner.findMany({ where: { policyGroupId: { in: scope.groupIds } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    if (!rows.length) throw partnerErrors.noPartnersInGroup();
    return rows;
  }

  /** The platform's certificate for partners: that of partner management's own key (application PMS). */
  async platformCertificate(): Promise<string> {
    return (await this.keys.masterCertificate('PMS')).certificate;
  }

  // --- the portal graph, every read through the caller's scope

  private visiblePartners(scope: Scope): Prisma.PartnerWhereInput {
    if (scope.all) return {};
    return { OR: [{ userId: scope.subject }, { policyGroupId: { in: scope.groupIds } }] };
  }

  /** Requests and keys of partners the caller may see: one join in the same statement, whatever the groups' size. */
  private ofVisiblePartners(scope: Scope): { partner?: Prisma.PartnerWhereInput } {
    return scope.all ? {} : { partner: this.visiblePartners(scope) };
  }

  partners(scope: Scope, page: PageArgs, filter?: PartnerFilter | null): Promise<Connection<PartnerRow>> {
    const where: Prisma.PartnerWhereInput = {
      AND: [
        this.visiblePartners(scope),
        { ...(filter?.status ? { status: filter.status } : {}), ...(filter?.policyGroupId ? { policyGroupId: filter.policyGroupId } : {}) },
      ],
    };
    return connection(
      page,
      (row) => row.id,
      (query) => this.prisma.partner.findMany({ where, ...pageArgs(query, 'id'), orderBy: newestFirst() }),
      () => this.prisma.partner.count({ where }),
    );
  }

  async apiKeyRequests(scope: Scope, page: PageArgs, filter?: ApiKeyRequestFilter | null): Promise<Connection<ApiKeyRequestRow>> {
    const where: Prisma.ApiKeyRequestWhereInput = {
      AND: [
        this.ofVisiblePartners(scope),
        { ...(filter?.status ? { status: filter.status } : {}), ...(filter?.partnerId ? { partnerId: filter.partnerId } : {}) },
      ],
    };
    return connection(
      page,
      (row) => row.id,
      (query) => this.prisma.apiKeyRequest.findMany({ where, ...pageArgs(query, 'id'), orderBy: newestFirst() }),
      () => this.prisma.apiKeyRequest.count({ where }),
    );
  }

  async partnersByIds(scope: Scope, ids: readonly string[]): Promise<Map<string, PartnerRow>> {
    const rows = await this.prisma.partner.findMany({ where: { AND: [{ id: { in: [...ids] } }, this.visiblePartners(scope)] } });
    return new Map(rows.map((row) => [row.id, row]));
  }

  async requestsByIds(scope: Scope, ids: readonly string[]): Promise<Map<string, ApiKeyRequestRow>> {
    const rows = await this.prisma.apiKeyRequest.findMany({ where: { id: { in: [...ids] }, ...this.ofVisiblePartners(scope) } });
    return new Map(rows.map((row) => [row.id, row]));
  }

  async apiKeysByIds(scope: Scope, ids: readonly string[]): Promise<Map<string, ApiKeyRow>> {
    const rows = await this.prisma.partnerApiKey.findMany({ where: { id: { in: [...ids] }, ...this.ofVisiblePartners(scope) } });
    return new Map(rows.map((row) => [row.id, withoutHash(row)]));
  }

  /** Keys by the request that created them, for ApiKeyRequest.apiKey. */
  async apiKeysByRequest(scope: Scope, requestIds: readonly string[]): Promise<Map<string, ApiKeyRow>> {
    const rows = await this.prisma.partnerApiKey.findMany({ where: { requestId: { in: [...requestIds] }, ...this.ofVisiblePartners(scope) } });
    return new Map(rows.map((row) => [row.requestId, withoutHash(row)]));
  }
}

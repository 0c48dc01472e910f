import { randomUUID } from 'node:crypto';
import type { EventBus } from '../../../lib/events.js';
import type { Connection, PageArgs } from '../../../lib/graph/connection.js';
import type { NestedList } from '../../../lib/graph/nested.js';
import type { MasterKey } from '../../../lib/master-key.js';
import { lookupHash, randomAlphanumeric } from '../../../lib/secrets.js';
import type { Clock } from '../../../lib/time.js';
import { partnerErrors } from '../errors.js';
import type { PolicyRow, PolicyService } from '../policies/service.js';
import type { PartnerSettings } from '../settings.js';
import type { PartnerScopes } from './reach.js';
import type { Caller, Scope } from './scope.js';
import type { ApiKeyRequestFilter, ApiKeyRequestRow, PartnerApiKey, PartnerKeyFilter, PartnerRequestFilter, PartnersStorage } from './storage.js';

/** An API key as the graph sees it: never the key, only its hint. */
export type ApiKeyRow = Omit<PartnerApiKey, 'keyHash'>;

export const DECISIONS = ['Approved', 'Rejected'] as const;
const IN_PROGRESS = 'in-progress';
export const API_KEY_LENGTH = 32;
const HMAC_PURPOSE = 'partner/api-key-hmac';
const DAY_MS = 86_400_000;

const withoutHash = ({ keyHash: _hash, ...row }: PartnerApiKey): ApiKeyRow => row;

/** What API keys need of the policies area. */
export type KeyPolicies = Pick<PolicyService, 'named' | 'existsNamed' | 'policyInGroup' | 'byIds'>;

/**
 * Partners' API key requests and keys. A partner asks for a key to one of
 * its group's active policies; a partner manager of that group decides, and
 * switches or moves the key. A key is shown once, on approval; the database
 * keeps its HMAC, which `findApiKey` looks keys up by. A change of a key's
 * status or policy is published (`apiKey.changed`) once written.
 */
export class ApiKeyService {
  private readonly hmacKey: Buffer;

  constructor(
    private readonly storage: PartnersStorage,
    private readonly scopes: PartnerScopes,
    private readonly policies: KeyPolicies,
    private readonly clock: Clock,
    masterKey: MasterKey,
    private readonly settings: Pick<PartnerSettings, 'apiKeyDays'>,
    private readonly events: Pick<EventBus, 'publish'>,
  ) {
    this.hmacKey = masterKey.derive(HMAC_PURPOSE);
  }

  /** The HMAC a key is stored and looked up by. */
  hashOf(key: string): string {
    return lookupHash(this.hmacKey, key);
  }

  /** The row of an API key by the clear key, whatever its state (validation checks state and owner in its own order). */
  findApiKey(clearKey: string): Promise<PartnerApiKey | null> {
    return this.storage.apiKeyByHash(this.hashOf(clearKey.trim()));
  }

  private stamp(caller: Caller) {
    return { by: caller.subject, at: this.clock.now() };
  }

  /** A partner asks for a key to a policy of its group, by the policy's name. */
  async requestApiKey(caller: Caller, partnerId: string, policyName: string, useCaseDescription: string | null | undefined) {
    const partner = await this.storage.partnerById(partnerId);
    if (!partner) throw partnerErrors.partnerUnknown(partnerId);
    // Only the partner itself asks for keys.
    if (partner.userId !== caller.subject) throw partnerErrors.notYourPartner();
    // A deactivated partner cannot gather keys to use once reactivated behind its manager's back.
    if (partner.status !== 'Active') throw partnerErrors.partnerNotActive();
    const policy = await this.policies.named(partner.policyGroupId, policyName);
    if (!policy) throw (await this.policies.existsNamed(policyName)) ? partnerErrors.policyOutsideGroup() : partnerErrors.policyMissing(policyName);
    if (!policy.isActive) throw partnerErrors.policyMissing(policyName);
    const row = await this.storage.createRequest({
      id: randomUUID(),
      partnerId,
      policyId: policy.id,
      useCaseDescription: useCaseDescription ?? null,
      status: IN_PROGRESS,
      createdBy: caller.subject,
      createdAt: this.clock.now(),
    });
    return { apiRequestId: row.id, message: 'partnerAPIKeyRequest successfully submitted.' };
  }

  async requestStatus(caller: Caller, partnerId: string, requestId: string) {
    await this.scopes.ownPartner(caller, partnerId);
    const request = await this.storage.requestById(requestId);
    if (request?.partnerId !== partnerId) throw partnerErrors.apiKeyRequestUnknown(requestId);
    const key = await this.storage.apiKeyOfRequest(requestId);
    return { apiRequestId: request.id, apikeyReqStatus: request.status, partnerApiKeyHint: key?.keyHint ?? null, validityTill: key?.expiresAt ?? null };
  }

  /**
   * Approves or rejects a pending request. The decision is a conditional
   * update of a request still in progress, so of two racing approvals one
   * decides and the other gets PMS_PMP_012; the key's unique requestId backs
   * it. The decision and the key are written together or not at all.
   */
  async decide(caller: Caller, requestId: string, status: string): Promise<{ message: string; partnerAPIKey: string | null; apiKey: ApiKeyRow | null }> {
    const scope = await this.scopes.managerScope(caller);
    const request = await this.storage.requestById(requestId);
    if (!request) throw partnerErrors.apiKeyRequestNotFound(requestId);
    const partner = await this.storage.partnerById(request.partnerId);
    if (!partner || !scope.groupIds.includes(partner.policyGroupId) || request.status !== IN_PROGRESS) throw partnerErrors.apiKeyRequestDenied();
    const stamp = this.stamp(caller);
    const clearKey = randomAlphanumeric(API_KEY_LENGTH);
    const apiKey = await this.storage.atomically(async (storage) => {
      if (!(await storage.decideRequest(requestId, IN_PROGRESS, status, stamp))) throw partnerErrors.apiKeyRequestDenied();
      if (status !== 'Approved') return null;
      const key = await storage.createApiKey({
        keyHash: this.hashOf(clearKey),
        id: randomUUID(),
        keyHint: clearKey.slice(-4),
        partnerId: request.partnerId,
        policyId: request.policyId,
        requestId,
        status: 'Active',
        expiresAt: new Date(stamp.at.getTime() + this.settings.apiKeyDays * DAY_MS),
        createdBy: caller.subject,
        createdAt: stamp.at,
      });
      // Another approval of the same request won the race: this one's decision is undone with its transaction.
      if (!key) throw partnerErrors.apiKeyRequestDenied();
      return key;
    });
    return apiKey
      ? { message: 'PartnerAPIKeyRequest successfully approved', partnerAPIKey: clearKey, apiKey: withoutHash(apiKey) }
      : { message: 'PartnerAPIKeyRequest successfully rejected', partnerAPIKey: null, apiKey: null };
  }

  /** The partner's key by its clear value: PMS_PMP_007 when unknown or another partner's. */
  private async keyOf(partnerId: string, clearKey: string): Promise<PartnerApiKey> {
    const key = await this.findApiKey(clearKey);
    if (key?.partnerId !== partnerId) throw partnerErrors.apiKeyNotFound();
    return key;
  }

  private changed(key: PartnerApiKey): Promise<void> {
    return this.events.publish('apiKey.changed', { partnerId: key.partnerId, apiKeyId: key.id });
  }

  async updateApiKeyStatus(caller: Caller, partnerId: string, clearKey: string, status: string) {
    await this.scopes.managedPartner(caller, partnerId, partnerErrors.partnerStatusDenied);
    const key = await this.keyOf(partnerId, clearKey);
    const updated = await this.storage.setApiKeyStatus(key.keyHash, status, this.stamp(caller));
    await this.changed(key);
    return {
      message: status === 'Active' ? 'Partner API Key activated successfully' : 'Partner API Key de-activated successfully',
      apiKey: withoutHash(updated),
    };
  }

  /** Moves a key to another active policy of its partner's group. */
  async changeKeyPolicy(caller: Caller, partnerId: string, clearKey: string, oldPolicyId: string, newPolicyId: string) {
    const partner = await this.scopes.managedPartner(caller, partnerId, partnerErrors.apiKeyOutsideGroup);
    const key = await this.keyOf(partnerId, clearKey);
    if (key.policyId !== oldPolicyId) throw partnerErrors.apiKeyNotOnOldPolicy();
    const policy = await this.policies.policyInGroup(newPolicyId);
    if (!policy) throw partnerErrors.policyMissing(newPolicyId);
    if (policy.policyGroupId !== partner.policyGroupId || !policy.isActive) throw partnerErrors.policyOutsideGroup();
    // Conditional on the old policy: a concurrent move finds nothing to change.
    const stamp = this.stamp(caller);
    if (!(await this.storage.moveApiKey(key.keyHash, oldPolicyId, newPolicyId, stamp))) throw partnerErrors.apiKeyNotOnOldPolicy();
    await this.changed(key);
    // The key as the conditional update left it: no second read.
    const moved = { ...key, policyId: newPolicyId, updatedBy: stamp.by, updatedAt: stamp.at };
    return { message: 'Partner api key mapped to the new policy successfully', apiKey: withoutHash(moved) };
  }

  // --- the portal graph, every read through the caller's scope

  apiKeyRequests(scope: Scope, page: PageArgs, filter?: ApiKeyRequestFilter | null): Promise<Connection<ApiKeyRequestRow>> {
    return this.storage.requestsPage(scope, page, filter);
  }

  async requestsByIds(scope: Scope, ids: readonly string[]): Promise<Map<string, ApiKeyRequestRow>> {
    return new Map((await this.storage.requestsByIds(scope, ids)).map((row) => [row.id, row]));
  }

  async apiKeysByIds(scope: Scope, ids: readonly string[]): Promise<Map<string, ApiKeyRow>> {
    return new Map((await this.storage.apiKeysByIds(scope, ids)).map((row) => [row.id, withoutHash(row)]));
  }

  /** Keys by the request that created them, for ApiKeyRequest.apiKey. */
  async apiKeysByRequest(scope: Scope, requestIds: readonly string[]): Promise<Map<string, ApiKeyRow>> {
    return new Map((await this.storage.apiKeysByRequests(scope, requestIds)).map((row) => [row.requestId, withoutHash(row)]));
  }

  /** The requests of each partner of a page (Partner.apiKeyRequests), within the scope, batched over the partners. */
  requestsOfPartners(scope: Scope, filter?: PartnerRequestFilter | null): NestedList<ApiKeyRequestRow> {
    return this.storage.requestsOfPartners(scope, filter);
  }

  /** The keys of each partner of a page (Partner.apiKeys), within the scope, batched over the partners; never a key's HMAC. */
  apiKeysOfPartners(scope: Scope, filter?: PartnerKeyFilter | null): NestedList<ApiKeyRow> {
    const list = this.storage.apiKeysOfPartners(scope, filter);
    return {
      pages: async (partnerIds, take) => new Map([...(await list.pages(partnerIds, take))].map(([partnerId, rows]) => [partnerId, rows.map(withoutHash)])),
      counts: list.counts,
      after: async (partnerId, page) => (await list.after(partnerId, page)).map(withoutHash),
      key: (row) => row.id,
    };
  }

  /**
   * The policies of keys and requests (ApiKey.policy, ApiKeyRequest.policy):
   * an admin's every one; anyone else's only those a key or a request of a
   * partner it sees is on. So a partner reads the policies of its own keys
   * and requests, and no other (Policy's other fields are its managers').
   */
  async policiesOfKeys(scope: Scope, policyIds: readonly string[]): Promise<Map<string, PolicyRow>> {
    const reached = scope.all ? policyIds : await this.storage.policiesOfVisibleKeys(scope, policyIds);
    return reached.length ? this.policies.byIds({ all: true }, reached) : new Map();
  }
}

import { timingSafeEqual } from 'node:crypto';
import { capped } from '../../../lib/graph/capped.js';
import type { NestedList } from '../../../lib/graph/nested.js';
import type { Clock } from '../../../lib/time.js';
import { residentIdentityOf, type Caller } from '../callers.js';
import type { IdrepoCipher } from '../cipher.js';
import { idrepoErrors, vidErrors } from '../errors.js';
import type { IdentityRow, IdentityService } from '../identities/service.js';
import { violations, type NumberRules } from '../../../lib/numbers.js';
import { issueVid, vidContext, type IssuedVid, type IssueParts } from './issue-vid.js';
import { MAX_USABLE_VIDS, type VidPolicies } from './policy.js';
import { actorOf, actsForAll, checkRegenerate, checkStatusAllowed, REGENERATED, statusAt, statusChange, type TypePolicy, type VidStatus } from './rules.js';
import { vidStoreOf, type VidDatabase, type VidRow, type VidStore } from './storage.js';

// The graph's mapper names the row here (graph-mappers.ts); the rules' names for the areas that import them.
export type { VidRow };
export { VID_STATUSES, type VidStatus } from './rules.js';
export type { IssuedVid };

export interface VidStatusChange {
  vidStatus: string;
  restoredVid: IssuedVid | null;
  /** the VID changed, as it now stands; absent for a bulk change */
  vid?: VidRow | null;
}

/** One VID as MOSIP's VidInfoDTO lists it. */
export interface VidInfo {
  vid: string;
  vidType: string;
  expiryTimestamp: Date | null;
  generatedOnTimestamp: Date;
  transactionLimit: number | null;
  transactionsLeftCount: number | null;
}

export interface VidFilter {
  type?: string | null;
  status?: VidStatus | null;
}

/** What the VID rules read of identities: the identities area's service. */
export type VidIdentities = Pick<IdentityService, 'find' | 'byUin' | 'byIds' | 'uinOfRow' | 'audit'>;

/**
 * Virtual IDs: numbers standing for a UIN, generated under the VID policy of
 * their type (policy.ts, rules.ts), stored as an HMAC for look-ups and a
 * ciphertext bound to their row. Every check-then-write runs under the
 * identity's lock (the one identity updates take), so racing calls cannot
 * exceed a policy's instances nor both revoke or regenerate the same VID.
 * Built over the client, or over a store of its own (a test's, in memory).
 */
export class VidService {
  private readonly store: VidStore;
  private readonly issuing: IssueParts;

  constructor(
    db: VidDatabase | VidStore,
    private readonly clock: Clock,
    private readonly cipher: Pick<IdrepoCipher, 'lookup' | 'encrypt' | 'decrypt'>,
    private readonly identities: VidIdentities,
    private readonly policies: VidPolicies,
    private readonly rules: { vid: NumberRules; uin: NumberRules },
  ) {
    this.store = vidStoreOf(db);
    this.issuing = { cipher, vidRules: rules.vid };
  }

  // --- the REST calls (MOSIP's VidServiceImpl)

  /** POST /vid: a new ACTIVE VID of the type; at the policy's limit, auto-restore replaces the oldest, else IDR-VID-003. */
  async create(caller: Caller, input: { vidType: string; uin: string }): Promise<IssuedVid> {
    const found = this.policies.find(input.vidType);
    if (!found) throw idrepoErrors.invalid('vidType', `one of ${this.policies.types().join(', ')}`);
    this.checkUin(input.uin);
    const identity = await this.identityInScope(caller, input.uin);
    const actor = actorOf(caller);
    return this.store.locked(identity.id, (vids) => issueVid(this.issuing, vids, identity.id, found, actor, this.clock.now()));
  }

  /** GET /vid/{VID}: the UIN of an ACTIVE, unexpired VID whose identity is ACTIVATED; the read is in the identity's trail (part `uin`, by VID). */
  async uinOf(caller: Caller, vid: string): Promise<string> {
    const row = await this.vidInScope(caller, vid);
    const status = this.statusOf(row);
    if (status !== 'ACTIVE') throw vidErrors.invalidVid(status);
    const identity = (await this.identities.byIds([row.identityId])).get(row.identityId);
    if (!identity) throw idrepoErrors.noRecord('the VID names no stored identity');
    if (identity.status !== 'ACTIVATED') throw vidErrors.invalidUin(identity.status);
    const uin = await this.identities.uinOfRow(identity);
    // Recorded before the UIN leaves: a read the trail cannot hold is not answered.
    await this.identities.audit(caller, identity.id, ['uin'], 'VID');
    return uin;
  }

  /**
   * PATCH /vid/{VID}: the status of an ACTIVE VID changed. USED on a VID of
   * unlimited transactions changes nothing; the policy's restoreOnAction status
   * (a perpetual VID REVOKED) makes a successor, returned as restoredVid.
   */
  async updateStatus(caller: Caller, vid: string, vidStatus: VidStatus): Promise<VidStatusChange> {
    checkStatusAllowed(caller, vidStatus);
    const found = await this.vidInScope(caller, vid);
    const actor = actorOf(caller);
    return this.store.locked(found.identityId, async (vids) => {
      const row = await this.current(vids.byId(found.id));
      const status = this.statusOf(row);
      if (status !== 'ACTIVE') throw vidErrors.invalidVid(status);
      const policy = this.policyOf(row);
      const change = statusChange(policy, vidStatus);
      if (change.write) await vids.setStatus(row.id, vidStatus, actor, this.clock.now());
      const restoredVid = change.restore ? await issueVid(this.issuing, vids, row.identityId, policy, actor, this.clock.now()) : null;
      return { vidStatus: change.write ? vidStatus : row.status, restoredVid, vid: change.write ? await this.current(vids.byId(row.id)) : row };
    });
  }

  /** POST /vid/{VID}/regenerate: a VID of a type without auto-restore is INVALIDATED and a new one of its type made. */
  async regenerate(caller: Caller, vid: string): Promise<IssuedVid> {
    const found = await this.vidInScope(caller, vid);
    const actor = actorOf(caller);
    return this.store.locked(found.identityId, async (vids) => {
      const row = await this.current(vids.byId(found.id));
      const policy = this.policyOf(row);
      checkRegenerate(policy, row.status);
      await vids.setStatus(row.id, REGENERATED, actor, this.clock.now());
      return issueVid(this.issuing, vids, row.identityId, policy, actor, this.clock.now());
    });
  }

  /** GET /vid/uin/{UIN}: the UIN's ACTIVE, unexpired VIDs, oldest first. */
  async listByUin(caller: Caller, uin: string): Promise<VidInfo[]> {
    this.checkUin(uin);
    const identity = await this.identityInScope(caller, uin);
    // At most what the policy lets a UIN hold (MAX_USABLE_VIDS); more (VIDs of a type the policy no longer names) is refused, not cut short.
    const now = this.clock.now();
    const rows = await capped(
      MAX_USABLE_VIDS,
      (take) => this.store.usable(identity.id, now, take),
      () => idrepoErrors.listTooLong('usable VIDs', MAX_USABLE_VIDS),
    );
    return Promise.all(
      rows.map(async (row) => ({
        vid: await this.vidOf(row),
        vidType: row.vidType,
        expiryTimestamp: row.expiresAt,
        generatedOnTimestamp: row.createdAt,
        transactionLimit: this.policies.find(row.vidType)?.policy.transactionsAllowed ?? null,
        transactionsLeftCount: row.transactionsLeft,
      })),
    );
  }

  /** POST /vid/deactivate: every ACTIVE, unexpired VID of the UIN DEACTIVATED (MOSIP does this when the UIN is deactivated). */
  deactivate(caller: Caller, uin: string): Promise<{ vidStatus: string }> {
    return this.moveAll(caller, uin, 'ACTIVE', 'DEACTIVATED');
  }

  /** POST /vid/reactivate: every DEACTIVATED, unexpired VID of the UIN ACTIVE again. */
  reactivate(caller: Caller, uin: string): Promise<{ vidStatus: string }> {
    return this.moveAll(caller, uin, 'DEACTIVATED', 'ACTIVE');
  }

  private async moveAll(caller: Caller, uin: string, from: VidStatus, to: VidStatus): Promise<{ vidStatus: string }> {
    this.checkUin(uin);
    const identity = await this.identityInScope(caller, uin);
    const actor = actorOf(caller);
    return this.store.locked(identity.id, async (vids) => {
      if ((await vids.moveAll(identity.id, from, to, actor, this.clock.now())) === 0) throw idrepoErrors.noRecord(`the UIN has no ${from}, unexpired VID`);
      return { vidStatus: to };
    });
  }

  // --- the portal graph

  async byIds(ids: readonly string[]): Promise<Map<string, VidRow>> {
    const rows = await this.store.byIds(ids);
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** An identity's VIDs, newest first; the status filter reads EXPIRED as the VIDs read (an ACTIVE one past its expiry). */
  /** The VIDs of each identity of a page (`registrations { identity { vids } }`), batched over the identities. */
  ofIdentities(filter: VidFilter | null | undefined): NestedList<VidRow> {
    const type = filter?.type ? (this.policies.find(filter.type)?.type ?? filter.type) : null;
    return this.store.ofIdentities({ type, status: filter?.status }, this.clock.now());
  }

  /** The status a VID reads with: ACTIVE past its expiry is EXPIRED. */
  statusOf(row: Pick<VidRow, 'status' | 'expiresAt'>): VidStatus {
    return statusAt(row, this.clock.now());
  }

  /** The VID in clear, checked against its look-up HMAC: a row whose number was swapped is refused. */
  async vidOf(row: Pick<VidRow, 'id' | 'vidEncrypted' | 'vidHash'>): Promise<string> {
    const vid = (await this.cipher.decrypt(row.vidEncrypted, vidContext(row.id))).toString('utf8');
    const expected = Buffer.from(row.vidHash, 'hex');
    const actual = Buffer.from(this.cipher.lookup(vid), 'hex');
    if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) throw idrepoErrors.crypto('stored data failed its integrity check');
    return vid;
  }

  /**
   * The identity a VID names (IDR-IDC-002 for a malformed number); null for
   * none. Any status for the repository's operators (an admin finds an
   * identity by VID); `usable` for those who act through it (a resident's
   * login, a lock request): ACTIVE and unexpired only.
   */
  async identityOfVid(vid: string, which: 'any' | 'usable' = 'any'): Promise<IdentityRow | null> {
    this.checkVid(vid);
    const row = await this.store.byHash(this.cipher.lookup(vid));
    if (!row || (which === 'usable' && this.statusOf(row) !== 'ACTIVE')) return null;
    return (await this.identities.byIds([row.identityId])).get(row.identityId) ?? null;
  }

  // --- checks and scope: every caller acts in its own

  private async current(read: Promise<VidRow | null>): Promise<VidRow> {
    const row = await read;
    if (!row) throw idrepoErrors.noRecord('no VID has this number');
    return row;
  }

  /** The policy of a stored VID's type; a type since removed from the policy cannot change (IDR-VID-003). */
  private policyOf(row: VidRow): TypePolicy {
    const found = this.policies.find(row.vidType);
    if (!found) throw vidErrors.policy(`the VID policy no longer has the type ${row.vidType}`);
    return found;
  }

  private checkUin(uin: string): void {
    const problems = violations(uin, this.rules.uin);
    if (problems.length) throw idrepoErrors.invalid('UIN', problems[0]);
  }

  private checkVid(vid: string): void {
    const problems = violations(vid, this.rules.vid);
    if (problems.length) throw idrepoErrors.invalid('VID', problems[0]);
  }

  /** The identity of a UIN: IDR-IDC-007 when none; for a resident, IDR-IDC-011 unless it is its own (whether or not it exists). */
  private async identityInScope(caller: Caller, uin: string): Promise<IdentityRow> {
    if (actsForAll(caller)) return this.identities.find({ uin });
    const own = residentIdentityOf(caller);
    const target = await this.identities.byUin(uin);
    if (!own || !target || target.id !== own) throw idrepoErrors.notAllowed('a resident acts on its own UIN only');
    return target;
  }

  /** A VID's row: IDR-IDC-002 for a malformed number, IDR-IDC-007 when none; for a resident, IDR-IDC-011 unless it is its own. */
  private async vidInScope(caller: Caller, vid: string): Promise<VidRow> {
    this.checkVid(vid);
    const row = await this.store.byHash(this.cipher.lookup(vid));
    if (!actsForAll(caller) && (!row || row.identityId !== residentIdentityOf(caller))) throw idrepoErrors.notAllowed('a resident acts on its own VIDs only');
    if (!row) throw idrepoErrors.noRecord('no VID has this number');
    return row;
  }
}

import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { Prisma, PrismaClient, Vid as VidRow } from '../../../generated/prisma/client.js';
import { underLock, type Tx } from '../../../lib/db/lock.js';
import { isUniqueViolation } from '../../../lib/db/unique.js';
import { PlatformError } from '../../../lib/errors.js';
import { connection, pageArgs, type Connection, type PageArgs } from '../../../lib/graph/connection.js';
import type { Clock } from '../../../lib/time.js';
import type { Principal } from '../../../lib/tokens.js';
import type { IdrepoCipher } from '../cipher.js';
import { idrepoErrors } from '../errors.js';
import type { IdentityRow, IdentityService } from '../identities/service.js';
import { ResidentDirectory } from '../residents/service.js';
import { generateNumber, violations, type NumberRules } from '../numbers.js';
import type { VidPolicies, VidTypePolicy } from './policy.js';

export type { VidRow };

/** MOSIP's VID statuses (mosip.idrepo.vid.allowedstatus): what a PATCH may set. */
export const VID_STATUSES = ['ACTIVE', 'REVOKED', 'EXPIRED', 'USED', 'INVALIDATED', 'DEACTIVATED'] as const;
export type VidStatus = (typeof VID_STATUSES)[number];

/** The statuses a VID may be regenerated from (mosip.idrepo.vid.regenerate.allowed-status). */
const REGENERATE_FROM: readonly string[] = ['ACTIVE', 'REVOKED', 'EXPIRED', 'USED'];
/** What a regenerated VID becomes (MOSIP's VID_REGENERATE_ACTIVE_STATUS). */
const REGENERATED = 'INVALIDATED';
/** A status PATCH that changes nothing on a VID of unlimited transactions (mosip.idrepo.vid.unlimited-txn-status). */
const UNLIMITED_TXN_STATUS = 'USED';

/** Callers that act on any resident's VIDs; a RESIDENT alone acts on its own only. */
const ANY_SCOPE: readonly string[] = ['ID_REPOSITORY', 'REGISTRATION_PROCESSOR', 'ID_AUTHENTICATION'];
/** Callers that may set any status of any VID: the repository's operators and the processor. */
const ANY_STATUS: readonly string[] = ['ID_REPOSITORY', 'REGISTRATION_PROCESSOR'];
/** A resident's own VIDs: it may revoke them, nothing else (resident services' revoke). */
const RESIDENT_STATUSES: readonly string[] = ['REVOKED'];
/** ID authentication marks a VID it authenticated with as used, nothing else (MOSIP's IDA): it never revokes a resident's VID. */
const AUTHENTICATION_STATUSES: readonly string[] = ['USED'];

/** Draws before giving up on a free number: the shipped 16-digit rules leave billions. */
const MAX_DRAWS = 10;
/** Whole attempts when a concurrent insert took the drawn number first (unique index on vidHash). */
const MAX_ATTEMPTS = 3;

type Caller = Pick<Principal, 'subject' | 'subjectType' | 'roles'>;

export interface IssuedVid {
  vid: string;
  vidStatus: VidStatus;
}

export interface VidStatusChange {
  vidStatus: string;
  restoredVid: IssuedVid | null;
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

const vidContext = (rowId: string) => `vid/${rowId}`;
const usable = (now: Date): Prisma.VidWhereInput => ({ status: 'ACTIVE', OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] });

/**
 * Virtual IDs: numbers standing for a UIN, generated under the VID policy of
 * their type (policy.ts), stored as an HMAC for look-ups and a ciphertext
 * bound to their row. Every check-then-write runs under the identity's lock
 * (the one identity updates take), so racing calls cannot exceed a policy's
 * instances nor both revoke or regenerate the same VID. An ACTIVE VID past its
 * expiry reads as EXPIRED: nothing has to run for it to expire.
 */
export class VidService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
    private readonly cipher: IdrepoCipher,
    private readonly identities: Pick<IdentityService, 'find' | 'uinOfRow' | 'audit'>,
    private readonly policies: VidPolicies,
    private readonly rules: { vid: NumberRules; uin: NumberRules },
  ) {}

  // --- the REST calls (MOSIP's VidServiceImpl)

  /** POST /vid: a new ACTIVE VID of the type; at the policy's limit, auto-restore replaces the oldest, else IDR-VID-003. */
  async create(caller: Caller, input: { vidType: string; uin: string }): Promise<IssuedVid> {
    const found = this.policies.find(input.vidType);
    if (!found) throw idrepoErrors.invalid('vidType', `one of ${this.policies.types().join(', ')}`);
    this.checkUin(input.uin);
    const identity = await this.identityInScope(caller, input.uin);
    const actor = this.actor(caller);
    return this.locked(identity.id, async (tx) => this.issue(tx, identity.id, found, actor));
  }

  /** GET /vid/{VID}: the UIN of an ACTIVE, unexpired VID whose identity is ACTIVATED; the read is in the identity's trail (part `uin`, by VID). */
  async uinOf(caller: Caller, vid: string): Promise<string> {
    const row = await this.vidInScope(caller, vid);
    const status = this.statusOf(row);
    if (status !== 'ACTIVE') throw vidErrors.invalidVid(status);
    const [identity] = await this.identityRows([row.identityId]);
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
    this.checkStatusAllowed(caller, vidStatus);
    const found = await this.vidInScope(caller, vid);
    const actor = this.actor(caller);
    return this.locked(found.identityId, async (tx) => {
      const row = await this.current(tx, found.id);
      const status = this.statusOf(row);
      if (status !== 'ACTIVE') throw vidErrors.invalidVid(status);
      const policy = this.policyOf(row);
      let vidStatusAfter: string = row.status;
      if (!(vidStatus === UNLIMITED_TXN_STATUS && policy.policy.transactionsAllowed === null)) {
        await tx.vid.update({ where: { id: row.id }, data: { status: vidStatus, updatedBy: actor, updatedAt: this.clock.now() } });
        vidStatusAfter = vidStatus;
      }
      const restore = policy.policy.autoRestoreAllowed && policy.policy.restoreOnAction === vidStatus;
      return { vidStatus: vidStatusAfter, restoredVid: restore ? await this.issue(tx, row.identityId, policy, actor) : null };
    });
  }

  /** POST /vid/{VID}/regenerate: a VID of a type without auto-restore is INVALIDATED and a new one of its type made. */
  async regenerate(caller: Caller, vid: string): Promise<IssuedVid> {
    const found = await this.vidInScope(caller, vid);
    const actor = this.actor(caller);
    return this.locked(found.identityId, async (tx) => {
      const row = await this.current(tx, found.id);
      const policy = this.policyOf(row);
      if (policy.policy.autoRestoreAllowed) throw vidErrors.policy(`a ${policy.type} VID is restored, not regenerated`);
      if (!REGENERATE_FROM.includes(row.status)) throw vidErrors.invalidVid(row.status);
      await tx.vid.update({ where: { id: row.id }, data: { status: REGENERATED, updatedBy: actor, updatedAt: this.clock.now() } });
      return this.issue(tx, row.identityId, policy, actor);
    });
  }

  /** GET /vid/uin/{UIN}: the UIN's ACTIVE, unexpired VIDs, oldest first. */
  async listByUin(caller: Caller, uin: string): Promise<VidInfo[]> {
    this.checkUin(uin);
    const identity = await this.identityInScope(caller, uin);
    const rows = await this.prisma.vid.findMany({
      where: { identityId: identity.id, ...usable(this.clock.now()) },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
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
    const actor = this.actor(caller);
    return this.locked(identity.id, async (tx) => {
      const now = this.clock.now();
      const where: Prisma.VidWhereInput = { identityId: identity.id, status: from, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] };
      const { count } = await tx.vid.updateMany({ where, data: { status: to, updatedBy: actor, updatedAt: now } });
      if (count === 0) throw idrepoErrors.noRecord(`the UIN has no ${from}, unexpired VID`);
      return { vidStatus: to };
    });
  }

  // --- the portal graph

  async byIds(ids: readonly string[]): Promise<Map<string, VidRow>> {
    const rows = await this.prisma.vid.findMany({ where: { id: { in: [...ids] } } });
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** An identity's VIDs, newest first; the status filter reads EXPIRED as the VIDs read (an ACTIVE one past its expiry). */
  ofIdentity(identityId: string, page: PageArgs, filter: VidFilter | null | undefined): Promise<Connection<VidRow>> {
    const now = this.clock.now();
    const and: Prisma.VidWhereInput[] = [{ identityId }];
    if (filter?.type) and.push({ vidType: this.policies.find(filter.type)?.type ?? filter.type });
    if (filter?.status === 'ACTIVE') and.push(usable(now));
    else if (filter?.status === 'EXPIRED') and.push({ OR: [{ status: 'EXPIRED' }, { status: 'ACTIVE', expiresAt: { lte: now } }] });
    else if (filter?.status) and.push({ status: filter.status });
    const where: Prisma.VidWhereInput = { AND: and };
    return connection(
      page,
      (row) => row.id,
      (query) => this.prisma.vid.findMany({ where, ...pageArgs(query, 'id'), orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }),
      () => this.prisma.vid.count({ where }),
    );
  }

  /** The status a VID reads with: ACTIVE past its expiry is EXPIRED. */
  statusOf(row: Pick<VidRow, 'status' | 'expiresAt'>): VidStatus {
    if (row.status === 'ACTIVE' && row.expiresAt && row.expiresAt.getTime() <= this.clock.now().getTime()) return 'EXPIRED';
    return row.status as VidStatus;
  }

  /** The VID in clear, checked against its look-up HMAC: a row whose number was swapped is refused. */
  async vidOf(row: Pick<VidRow, 'id' | 'vidEncrypted' | 'vidHash'>): Promise<string> {
    const vid = (await this.cipher.decrypt(row.vidEncrypted, vidContext(row.id))).toString('utf8');
    const expected = Buffer.from(row.vidHash, 'hex');
    const actual = Buffer.from(this.cipher.lookup(vid), 'hex');
    if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) throw idrepoErrors.crypto('stored data failed its integrity check');
    return vid;
  }

  // --- rules

  /**
   * A new VID of the policy's type for the identity, in the caller's
   * transaction (under the identity's lock): only for an ACTIVATED identity;
   * at the instance limit the oldest usable VID takes restoreOnAction when
   * the policy auto-restores (MOSIP: exactly at the limit), else IDR-VID-003.
   */
  private async issue(tx: Tx, identityId: string, found: { type: string; policy: VidTypePolicy }, actor: string): Promise<IssuedVid> {
    const { type, policy } = found;
    const identity = await tx.identity.findUnique({ where: { id: identityId }, select: { status: true } });
    if (!identity) throw idrepoErrors.noRecord('no identity has this UIN');
    if (identity.status !== 'ACTIVATED') throw vidErrors.invalidUin(identity.status);
    const now = this.clock.now();
    const active = await tx.vid.findMany({
      where: { identityId, vidType: type, ...usable(now) },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: { id: true },
    });
    if (active.length >= policy.instancesAllowed) {
      const oldest = active[0];
      if (!oldest || active.length !== policy.instancesAllowed || !policy.autoRestoreAllowed)
        throw vidErrors.policy(`a UIN holds at most ${policy.instancesAllowed} ${type} VID(s)`);
      await tx.vid.update({ where: { id: oldest.id }, data: { status: policy.restoreOnAction, updatedBy: actor, updatedAt: now } });
    }
    const { vid, vidHash } = await this.freeNumber(tx);
    const id = randomUUID();
    await tx.vid.create({
      data: {
        id,
        vidHash,
        vidEncrypted: this.cipher.encrypt(Buffer.from(vid, 'utf8'), vidContext(id)),
        identityId,
        vidType: type,
        status: 'ACTIVE',
        expiresAt: policy.validForInMinutes === null ? null : new Date(now.getTime() + policy.validForInMinutes * 60_000),
        transactionsLeft: policy.transactionsAllowed,
        createdBy: actor,
        createdAt: now,
      },
    });
    return { vid, vidStatus: 'ACTIVE' };
  }

  /** A number valid under the VID rules that no VID holds (an HMAC look-up per draw). */
  private async freeNumber(tx: Tx): Promise<{ vid: string; vidHash: string }> {
    for (let draw = 0; draw < MAX_DRAWS; draw++) {
      const vid = generateNumber(this.rules.vid);
      const vidHash = this.cipher.lookup(vid);
      if (!(await tx.vid.findUnique({ where: { vidHash }, select: { id: true } }))) return { vid, vidHash };
    }
    throw vidErrors.generation();
  }

  /**
   * `work` under the identity's lock, in one transaction: a refusal part-way
   * (IDR-VID-003 after a revoke) leaves nothing changed. A concurrent insert of
   * the same number (the unique index on vidHash) runs the whole work again.
   */
  private async locked<T>(identityId: string, work: (tx: Tx) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await underLock(this.prisma, `idrepo_identity:${identityId}`, work);
      } catch (error) {
        if (error instanceof PlatformError) throw error;
        if (isUniqueViolation(error) && attempt < MAX_ATTEMPTS) continue;
        throw isUniqueViolation(error) ? vidErrors.generation() : idrepoErrors.database();
      }
    }
  }

  private async current(tx: Tx, id: string): Promise<VidRow> {
    const row = await tx.vid.findUnique({ where: { id } });
    if (!row) throw idrepoErrors.noRecord('no VID has this number');
    return row;
  }

  /** The policy of a stored VID's type; a type since removed from the policy cannot change (IDR-VID-003). */
  private policyOf(row: VidRow): { type: string; policy: VidTypePolicy } {
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

  // --- scope: every caller acts in its own

  /**
   * The statuses a caller may set, checked before anything is read: any for
   * the repository's operators and the processor; USED only for ID
   * authentication (an invalid status for it, IDR-IDC-002 as MOSIP's
   * validator answers, on any VID alike); REVOKED only for a resident.
   */
  private checkStatusAllowed(caller: Caller, vidStatus: VidStatus): void {
    if (caller.roles.some((role) => ANY_STATUS.includes(role))) return;
    if (caller.roles.includes('ID_AUTHENTICATION')) {
      if (!AUTHENTICATION_STATUSES.includes(vidStatus))
        throw idrepoErrors.invalid('vidStatus', `ID authentication may only set a VID ${AUTHENTICATION_STATUSES.join(', ')}`);
      return;
    }
    if (!RESIDENT_STATUSES.includes(vidStatus)) throw idrepoErrors.notAllowed(`a resident may only set its VIDs ${RESIDENT_STATUSES.join(', ')}`);
  }

  private actsForAll(caller: Caller): boolean {
    return caller.roles.some((role) => ANY_SCOPE.includes(role));
  }

  /** Who changed a VID: the caller's id, or "resident" (a resident's subject is their identity's id: the trail names the role). */
  private actor(caller: Caller): string {
    return this.actsForAll(caller) ? caller.subject : 'resident';
  }

  /**
   * The identity a VID names (IDR-IDC-002 for a malformed number); null for
   * none. Any status for the repository's operators (an admin finds an
   * identity by VID); `usable` for those who act through it (a resident's
   * login, a lock request): ACTIVE and unexpired only.
   */
  async identityOfVid(vid: string, which: 'any' | 'usable' = 'any'): Promise<IdentityRow | null> {
    this.checkVid(vid);
    const row = await this.prisma.vid.findUnique({ where: { vidHash: this.cipher.lookup(vid) } });
    if (!row || (which === 'usable' && this.statusOf(row) !== 'ACTIVE')) return null;
    return this.prisma.identity.findUnique({ where: { id: row.identityId } });
  }

  /** The identity of a UIN: IDR-IDC-007 when none; for a resident, IDR-IDC-011 unless it is its own (whether or not it exists). */
  private async identityInScope(caller: Caller, uin: string) {
    if (this.actsForAll(caller)) return this.identities.find({ uin });
    const own = ResidentDirectory.identityIdOf(caller);
    const target = await this.prisma.identity.findUnique({ where: { uinHash: this.cipher.lookup(uin) } });
    if (!own || target?.id !== own) throw idrepoErrors.notAllowed('a resident acts on its own UIN only');
    return target;
  }

  /** A VID's row: IDR-IDC-002 for a malformed number, IDR-IDC-007 when none; for a resident, IDR-IDC-011 unless it is its own. */
  private async vidInScope(caller: Caller, vid: string): Promise<VidRow> {
    this.checkVid(vid);
    const row = await this.prisma.vid.findUnique({ where: { vidHash: this.cipher.lookup(vid) } });
    if (!this.actsForAll(caller)) {
      const own = ResidentDirectory.identityIdOf(caller);
      if (!own || row?.identityId !== own) throw idrepoErrors.notAllowed('a resident acts on its own VIDs only');
    }
    if (!row) throw idrepoErrors.noRecord('no VID has this number');
    return row;
  }

  private identityRows(ids: string[]) {
    return this.prisma.identity.findMany({ where: { id: { in: ids } } });
  }
}

/** MOSIP's VID codes (IdRepoErrorConstants, VID service). */
export const vidErrors = {
  /** IDR-VID-001: the VID is not usable (REVOKED, EXPIRED, USED, INVALIDATED, DEACTIVATED) */
  invalidVid: (status: string) => new PlatformError('IDR-VID-001', `VID is ${status}`),
  generation: () => new PlatformError('IDR-VID-002', 'Failed to generate VID'),
  policy: (why: string) => new PlatformError('IDR-VID-003', `Could not generate/regenerate VID as per policy: ${why}`),
  /** IDR-VID-004: the identity is not ACTIVATED (BLOCKED, DEACTIVATED) */
  invalidUin: (status: string) => new PlatformError('IDR-VID-004', `${status} UIN`),
};

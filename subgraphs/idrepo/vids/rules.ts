import type { Caller } from '../callers.js';
import { idrepoErrors, vidErrors } from '../errors.js';
import type { VidTypePolicy } from './policy.js';

/*
 * The VID rules that need no stored state: statuses, who may set which, the
 * instance limit, expiry. The service applies them to what its storage reads.
 */

/** MOSIP's VID statuses (mosip.idrepo.vid.allowedstatus): what a PATCH may set. */
export const VID_STATUSES = ['ACTIVE', 'REVOKED', 'EXPIRED', 'USED', 'INVALIDATED', 'DEACTIVATED'] as const;
export type VidStatus = (typeof VID_STATUSES)[number];

/** A VID type as the policy spells it, and its rules. */
export interface TypePolicy {
  type: string;
  policy: VidTypePolicy;
}

/** The statuses a VID may be regenerated from (mosip.idrepo.vid.regenerate.allowed-status). */
const REGENERATE_FROM: readonly string[] = ['ACTIVE', 'REVOKED', 'EXPIRED', 'USED'];
/** What a regenerated VID becomes (MOSIP's VID_REGENERATE_ACTIVE_STATUS). */
export const REGENERATED = 'INVALIDATED';
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

/** The status a VID reads with at `now`: ACTIVE past its expiry is EXPIRED (nothing has to run for a VID to expire). */
export function statusAt(row: { status: string; expiresAt: Date | null }, now: Date): VidStatus {
  if (row.status === 'ACTIVE' && row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return 'EXPIRED';
  return row.status as VidStatus;
}

/** When a VID made at `now` expires under its type's policy; null for never. */
export function expiryOf(policy: VidTypePolicy, now: Date): Date | null {
  return policy.validForInMinutes === null ? null : new Date(now.getTime() + policy.validForInMinutes * 60_000);
}

/**
 * Room for one more VID of the type, given the ids of the identity's usable
 * VIDs of that type, oldest first: undefined below the limit; exactly at it,
 * the oldest, which takes restoreOnAction when the policy auto-restores
 * (MOSIP); IDR-VID-003 otherwise.
 */
export function vidToRetire(usable: readonly string[], { type, policy }: TypePolicy): string | undefined {
  if (usable.length < policy.instancesAllowed) return undefined;
  const oldest = usable[0];
  if (!oldest || usable.length !== policy.instancesAllowed || !policy.autoRestoreAllowed)
    throw vidErrors.policy(`a UIN holds at most ${policy.instancesAllowed} ${type} VID(s)`);
  return oldest;
}

/**
 * What a status PATCH on an ACTIVE VID does: `write`, unless it is USED on a
 * VID of unlimited transactions (which changes nothing); `restore`, a
 * successor issued, when the status is the policy's restoreOnAction (a
 * perpetual VID REVOKED).
 */
export function statusChange({ policy }: TypePolicy, requested: VidStatus): { write: boolean; restore: boolean } {
  return {
    write: !(requested === UNLIMITED_TXN_STATUS && policy.transactionsAllowed === null),
    restore: policy.autoRestoreAllowed && policy.restoreOnAction === requested,
  };
}

/** IDR-VID-003 for a type that auto-restores (its VIDs are restored, not regenerated), IDR-VID-001 from a status MOSIP does not regenerate. */
export function checkRegenerate({ type, policy }: TypePolicy, status: string): void {
  if (policy.autoRestoreAllowed) throw vidErrors.policy(`a ${type} VID is restored, not regenerated`);
  if (!REGENERATE_FROM.includes(status)) throw vidErrors.invalidVid(status);
}

// --- scope: every caller acts in its own

export function actsForAll(caller: Caller): boolean {
  return caller.roles.some((role) => ANY_SCOPE.includes(role));
}

/** Who changed a VID: the caller's id, or "resident" (a resident's subject is their identity's id: the trail names the role). */
export function actorOf(caller: Caller): string {
  return actsForAll(caller) ? caller.subject : 'resident';
}

/**
 * The statuses a caller may set, checked before anything is read: any for
 * the repository's operators and the processor; USED only for ID
 * authentication (an invalid status for it, IDR-IDC-002 as MOSIP's
 * validator answers, on any VID alike); REVOKED only for a resident.
 */
export function checkStatusAllowed(caller: Caller, vidStatus: VidStatus): void {
  if (caller.roles.some((role) => ANY_STATUS.includes(role))) return;
  if (caller.roles.includes('ID_AUTHENTICATION')) {
    if (!AUTHENTICATION_STATUSES.includes(vidStatus))
      throw idrepoErrors.invalid('vidStatus', `ID authentication may only set a VID ${AUTHENTICATION_STATUSES.join(', ')}`);
    return;
  }
  if (!RESIDENT_STATUSES.includes(vidStatus)) throw idrepoErrors.notAllowed(`a resident may only set its VIDs ${RESIDENT_STATUSES.join(', ')}`);
}

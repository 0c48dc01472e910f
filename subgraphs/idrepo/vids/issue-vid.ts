import { randomUUID } from 'node:crypto';
import type { IdrepoCipher } from '../cipher.js';
import { idrepoErrors, vidErrors } from '../errors.js';
import { generateNumber, type NumberRules } from '../../../lib/numbers.js';
import { expiryOf, vidToRetire, type TypePolicy, type VidStatus } from './rules.js';
import type { LockedVids } from './storage.js';

/** Draws before giving up on a free number: the shipped 16-digit rules leave billions. */
const MAX_DRAWS = 10;

export interface IssuedVid {
  vid: string;
  vidStatus: VidStatus;
  /** the VID record's id (the graph's Vid) */
  id: string;
}

/** What issuing works with: the cipher that seals the number, and the VID number rules. */
export interface IssueParts {
  cipher: Pick<IdrepoCipher, 'lookup' | 'encrypt'>;
  vidRules: NumberRules;
}

export const vidContext = (rowId: string): string => `vid/${rowId}`;

/**
 * A new VID of the policy's type for the identity, in the caller's
 * transaction (under the identity's lock): only for an ACTIVATED identity;
 * at the instance limit the oldest usable VID takes restoreOnAction when
 * the policy auto-restores, else IDR-VID-003 (rules.ts).
 */
export async function issueVid(parts: IssueParts, vids: LockedVids, identityId: string, found: TypePolicy, actor: string, now: Date): Promise<IssuedVid> {
  const { type, policy } = found;
  const status = await vids.identityStatus(identityId);
  if (status === null) throw idrepoErrors.noRecord('no identity has this UIN');
  if (status !== 'ACTIVATED') throw vidErrors.invalidUin(status);
  const retired = vidToRetire(await vids.usableOfType(identityId, type, now), found);
  if (retired) await vids.setStatus(retired, policy.restoreOnAction, actor, now);
  const { vid, vidHash } = await freeNumber(parts, vids);
  const id = randomUUID();
  await vids.insert({
    id,
    vidHash,
    vidEncrypted: parts.cipher.encrypt(Buffer.from(vid, 'utf8'), vidContext(id)),
    identityId,
    vidType: type,
    status: 'ACTIVE',
    expiresAt: expiryOf(policy, now),
    transactionsLeft: policy.transactionsAllowed,
    createdBy: actor,
    createdAt: now,
  });
  return { vid, vidStatus: 'ACTIVE', id };
}

/** A number valid under the VID rules that no VID holds (an HMAC look-up per draw). */
async function freeNumber(parts: IssueParts, vids: LockedVids): Promise<{ vid: string; vidHash: string }> {
  for (let draw = 0; draw < MAX_DRAWS; draw++) {
    const vid = generateNumber(parts.vidRules);
    const vidHash = parts.cipher.lookup(vid);
    if (!(await vids.numberTaken(vidHash))) return { vid, vidHash };
  }
  throw vidErrors.generation();
}

import { PlatformError } from '../../../lib/errors.js';
import type { Clock } from '../../../lib/time.js';
import type { IdrepoCipher } from '../cipher.js';
import { idrepoErrors } from '../errors.js';
import type { IdentityChecks } from './check-identity.js';
import { openIdentity, sealedIdentity, type IdentityFiles } from './records.js';
import type { IdentityRow, IdentityStorage } from './storage.js';
import type { Caller, IdentityInput, IdentityStatus, StoredIdentity } from './types.js';

/** How often an update is worked out again when other updates of the identity keep winning the race. */
const UPDATE_ATTEMPTS = 5;

/** Status changes MOSIP allows through an update: a deactivated identity stays so. */
const NEXT_STATUSES: Record<IdentityStatus, readonly IdentityStatus[]> = {
  ACTIVATED: ['ACTIVATED', 'BLOCKED', 'DEACTIVATED'],
  BLOCKED: ['ACTIVATED', 'BLOCKED', 'DEACTIVATED'],
  DEACTIVATED: [],
};

/** What an update works with: the identities' storage, the cipher and object store, the checks, and the service's look-up by UIN. */
export interface UpdateParts {
  store: Pick<IdentityStorage, 'ridTaken' | 'update'>;
  clock: Clock;
  cipher: IdrepoCipher;
  files: IdentityFiles;
  checks: IdentityChecks;
  find(uin: string): Promise<IdentityRow>;
}

/**
 * A later registration's changes: attributes merged into the stored
 * identity, documents and biometrics replaced by category, the status moved
 * as NEXT_STATUSES allows. The write applies only to the identity as it
 * was read: an update that raced another is worked out again on the
 * other's result, so neither is lost and no rule is checked on stale state.
 */
export async function updateIdentity(parts: UpdateParts, caller: Caller, input: IdentityInput): Promise<StoredIdentity> {
  const uin = parts.checks.uinOf(input.identity);
  for (let attempt = 1; ; attempt++) {
    const written = await tryUpdate(parts, caller, input, await parts.find(uin));
    if (written) return { status: written.status, uin, identity: written };
    if (attempt === UPDATE_ATTEMPTS) throw idrepoErrors.database();
  }
}

/** One update of the identity as read; null when another update changed it first. */
async function tryUpdate(parts: UpdateParts, caller: Caller, input: IdentityInput, current: IdentityRow): Promise<IdentityRow | null> {
  const { store, cipher, files } = parts;
  if (await store.ridTaken(input.registrationId)) throw idrepoErrors.exists('RID');
  if (current.status === 'DEACTIVATED') throw idrepoErrors.invalidRequest('the identity is DEACTIVATED: it changes no more');
  const status = (input.status ?? current.status) as IdentityStatus;
  if (!NEXT_STATUSES[current.status as IdentityStatus].includes(status))
    throw idrepoErrors.invalidRequest(`an identity ${current.status} cannot become ${status}`);
  const stored = await openIdentity(cipher, current);
  const merged = { ...stored, ...input.identity, UIN: stored.UIN };
  // The stored files stay valid for the merged identity (it keeps every field they belong to, but those it empties): only the new ones are checked.
  const checked = await parts.checks.check(merged, input.documents ?? []);
  const written = await files.write(current.id, checked.files);
  const writtenKeys = written.map((file) => file.row.objectKey);
  // Replaced files go, and so does the file of a document or biometric field the update empties (null).
  const leaving = [...checked.files.map((file) => file.category), ...Object.keys(input.identity).filter((field) => input.identity[field] === null)];
  let outcome;
  try {
    outcome = await store.update(
      current,
      {
        status,
        registrationId: input.registrationId,
        biometricReferenceId: input.biometricReferenceId ?? current.biometricReferenceId,
        ...sealedIdentity(cipher, current.id, merged),
        schemaVersion: checked.schemaVersion,
        updatedBy: caller.subject,
        updatedAt: parts.clock.now(),
      },
      leaving,
      written.map((file) => file.row),
    );
  } catch (error) {
    await files.remove(writtenKeys);
    throw error instanceof PlatformError ? error : idrepoErrors.database();
  }
  if (typeof outcome === 'object') {
    await files.remove(outcome.replaced.map((file) => file.objectKey));
    return outcome.row;
  }
  await files.remove(writtenKeys);
  if (outcome === 'taken') throw idrepoErrors.exists('RID');
  return null;
}

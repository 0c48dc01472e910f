import type { Clock } from '../../../lib/time.js';
import { created, deleted } from '../audit.js';
import type { ZoneService } from '../devices/zones.js';
import { masterdataErrors } from '../errors.js';
import type { References } from './references.js';
import type { CentreUserRow, CentreUserStore } from './storage/centre-users.js';
import type { CentreStore } from './storage/centres.js';
import { CENTRE } from './write-centre.js';

/** What mapping users to centres works with: the centres and their users' tables, the clock, the caller's zones, and auth's users. */
export interface UserMapping {
  centres: Pick<CentreStore, 'zonesOf'>;
  users: Pick<CentreUserStore, 'locked'>;
  clock: Clock;
  references: Pick<References, 'centreExists'>;
  zones: Pick<ZoneService, 'guardOf'>;
  /** whether a user exists (the auth component's users) */
  userExists: (userId: string) => Promise<boolean>;
}

/**
 * Maps a user to a centre of the caller's zones (KER-MSD-439 otherwise). A
 * user works at one centre at a time (MOSIP's rule): a user of another
 * centre is unmapped there first, by that centre's admin (KER-MSD-432); a
 * live mapping is there already (KER-MSD-426); a removed mapping comes back.
 * The centre must exist (KER-MSD-428), and the user (KER-USR-007).
 */
export async function mapUserToCentre(mapping: UserMapping, by: string, userId: string, regCenterId: string): Promise<CentreUserRow> {
  const guard = await mapping.zones.guardOf(by);
  if (!(await mapping.references.centreExists(regCenterId))) throw masterdataErrors.mappingCentreNotFound(regCenterId);
  guard.require(CENTRE, ...(await mapping.centres.zonesOf(regCenterId)));
  if (!(await mapping.userExists(userId))) throw masterdataErrors.userNotFound(userId);
  const now = mapping.clock.now();
  return mapping.users.locked(
    userId,
    async (inLock) => {
      // The centre's zones again, under the lock: a centre moved to another zone meanwhile is no longer the caller's.
      guard.require(CENTRE, ...(await inLock.zonesOfCentre(regCenterId)));
      const mappings = await inLock.mappingsOf(userId);
      const elsewhere = mappings.find((row) => !row.isDeleted && row.regCenterId !== regCenterId);
      if (elsewhere) throw masterdataErrors.mappedElsewhere(elsewhere.regCenterId);
      const here = mappings.find((row) => row.regCenterId === regCenterId);
      if (here && !here.isDeleted) throw masterdataErrors.mappingExists();
      const key = { regCenterId, userId };
      return here ? inLock.rewrite(key, { isActive: true, ...created(by, now), updatedBy: null, updatedAt: null }) : inLock.create(key, created(by, now));
    },
    () => masterdataErrors.mappingExists(),
  );
}

/** Unmaps a user from a centre of the caller's zones (KER-MSD-439 otherwise); KER-MSD-423 when there is no live mapping. */
export async function unmapUserFromCentre(mapping: UserMapping, by: string, userId: string, regCenterId: string): Promise<CentreUserRow> {
  const guard = await mapping.zones.guardOf(by);
  return mapping.users.locked(userId, async (inLock) => {
    guard.require(CENTRE, ...(await inLock.zonesOfCentre(regCenterId)));
    const key = { regCenterId, userId };
    if (!(await inLock.remove(key, deleted(by, mapping.clock.now())))) throw masterdataErrors.mappingNotFound(userId, regCenterId);
    return inLock.mapping(key);
  });
}

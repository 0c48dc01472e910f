import type { PlatformError } from '../../../lib/errors.js';
import type { Role } from '../../../lib/roles.js';
import type { ZoneService } from '../devices/zones.js';
import { masterdataErrors } from '../errors.js';
import type { CentreUserStore } from './storage/centre-users.js';
import type { CentreStore } from './storage/centres.js';
import type { Caller, PlacedMachine, Reach } from './types.js';

export type { Caller, PlacedMachine, Reach };

/** The roles that administer by zone (MOSIP's admins, each mapped to its zones); the others reach only the centres they work at. */
const ZONE_ADMINS: readonly Role[] = ['GLOBAL_ADMIN', 'ZONAL_ADMIN', 'MASTERDATA_ADMIN', 'REGISTRATION_ADMIN'];

/**
 * Which registration centres, their staff and machines a caller reaches: a
 * role alone is never enough. Registration staff (officers, supervisors)
 * reach the centre they are mapped to; admins the centres and machines of
 * the zones they are mapped to (and those below), as they reach devices.
 * Residents and partners reach none of it (the role table stops them first).
 */
export class CentreReach {
  constructor(
    private readonly centres: Pick<CentreStore, 'idsInZones' | 'exists'>,
    private readonly users: Pick<CentreUserStore, 'worksAt'>,
    private readonly zones: Pick<ZoneService, 'scopeOf' | 'coveredCodes'>,
  ) {}

  isAdmin(caller: Caller): boolean {
    return caller.roles.some((role) => (ZONE_ADMINS as readonly string[]).includes(role));
  }

  /** Everything a caller reaches (a few queries: read it once per request). */
  async of(caller: Caller): Promise<Reach> {
    const admin = this.isAdmin(caller);
    const zoneCodes = new Set(admin ? await this.zones.coveredCodes(await this.zones.scopeOf(caller.subject)) : []);
    const [mapped, inZones] = await Promise.all([
      // the live centres a user is mapped to (one, by MOSIP's rule)
      this.users.worksAt(caller.subject),
      zoneCodes.size ? this.centres.idsInZones([...zoneCodes]) : Promise.resolve([]),
    ]);
    return { admin, zoneCodes, centreIds: new Set([...mapped, ...inZones]) };
  }

  /** Whether a reach holds a centre: the caller works there, or administers the centre's zone. */
  static reachesCentre(reach: Reach, centreId: string): boolean {
    return reach.centreIds.has(centreId);
  }

  /** Whether a reach holds a machine: it is at a centre the caller reaches, or (for an admin) in one of its zones. */
  static reachesMachine(reach: Reach, machine: PlacedMachine): boolean {
    return (reach.admin && reach.zoneCodes.has(machine.zoneCode)) || (machine.regCenterId !== null && reach.centreIds.has(machine.regCenterId));
  }

  /**
   * Refuses a centre a list asks for that the reach does not hold (KER-MSD-439
   * for an admin, KER-ATH-403 for its staff); a centre that does not exist is
   * no one's to refuse: its list is empty.
   */
  async requireListed(reach: Reach, centreId: string): Promise<void> {
    if (CentreReach.reachesCentre(reach, centreId)) return;
    if (await this.centres.exists(centreId)) throw CentreReach.refusal(reach, `registration centre ${centreId}`);
  }

  /** The refusal of what lies outside: an admin's zones (KER-MSD-439), or another centre for its staff (KER-ATH-403). */
  static refusal(reach: Pick<Reach, 'admin'>, what: string): PlatformError {
    return reach.admin ? masterdataErrors.zoneNotAuthorized(what) : masterdataErrors.notYourCentre(what);
  }
}

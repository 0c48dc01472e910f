import type { Prisma, PrismaClient } from '../../../generated/prisma/client.js';
import type { PlatformError } from '../../../lib/errors.js';
import type { Role } from '../../../lib/roles.js';
import type { Principal } from '../../../lib/tokens.js';
import { LIVE } from '../audit.js';
import type { ZoneService } from '../devices/zones.js';
import { masterdataErrors } from '../errors.js';

/** Who asks: its id (a user's, as centre and zone mappings name it) and roles. */
export type Caller = Pick<Principal, 'subject' | 'roles'>;

/** The roles that administer by zone (MOSIP's admins, each mapped to its zones); the others reach only the centres they work at. */
const ZONE_ADMINS: readonly Role[] = ['GLOBAL_ADMIN', 'ZONAL_ADMIN', 'MASTERDATA_ADMIN', 'REGISTRATION_ADMIN'];

/** The registration centres and machines a caller reaches. */
export interface Reach {
  /** the caller holds an admin role: its zones count, and a refusal is KER-MSD-439 */
  admin: boolean;
  /** the zones it administers and those below them (admins only) */
  zoneCodes: ReadonlySet<string>;
  /** the centres it works at (mapped to it), and the centres of its zones */
  centreIds: ReadonlySet<string>;
}

/** A machine as the rule reads it. */
export type PlacedMachine = { zoneCode: string; regCenterId: string | null };

/**
 * Which registration centres, their staff and machines a caller reaches: a
 * role alone is never enough. Registration staff (officers, supervisors)
 * reach the centre they are mapped to; admins the centres and machines of
 * the zones they are mapped to (and those below), as they reach devices.
 * Residents and partners reach none of it (the role table stops them first).
 */
export class CentreReach {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly zones: ZoneService,
  ) {}

  isAdmin(caller: Caller): boolean {
    return caller.roles.some((role) => (ZONE_ADMINS as readonly string[]).includes(role));
  }

  /** Everything a caller reaches (a few queries: read it once per request). */
  async of(caller: Caller): Promise<Reach> {
    const admin = this.isAdmin(caller);
    const zoneCodes = new Set(admin ? await this.zones.coveredCodes(await this.zones.scopeOf(caller.subject)) : []);
    const [mapped, inZones] = await Promise.all([
      this.worksAt(caller.subject),
      zoneCodes.size
        ? this.prisma.registrationCenter.findMany({ where: { zoneCode: { in: [...zoneCodes] }, ...LIVE }, select: { id: true }, distinct: ['id'] })
        : Promise.resolve([]),
    ]);
    return { admin, zoneCodes, centreIds: new Set([...mapped, ...inZones.map((row) => row.id)]) };
  }

  /** The live centres a user is mapped to (one, by MOSIP's rule). */
  private async worksAt(userId: string): Promise<string[]> {
    const rows = await this.prisma.registrationCenterUser.findMany({ where: { userId, isActive: true, ...LIVE }, select: { regCenterId: true } });
    return rows.map((row) => row.regCenterId);
  }

  /** Whether a reach holds a centre: the caller works there, or administers the centre's zone. */
  static reachesCentre(reach: Reach, centreId: string): boolean {
    return reach.centreIds.has(centreId);
  }

  /** Whether a reach holds a machine: it is at a centre the caller reaches, or (for an admin) in one of its zones. */
  static reachesMachine(reach: Reach, machine: PlacedMachine): boolean {
    return (reach.admin && reach.zoneCodes.has(machine.zoneCode)) || (machine.regCenterId !== null && reach.centreIds.has(machine.regCenterId));
  }

  /** Prisma's condition on Machine for the machines a reach covers. */
  static machineWhere(reach: Reach): Prisma.MachineWhereInput {
    return { OR: [{ zoneCode: { in: reach.admin ? [...reach.zoneCodes] : [] } }, { regCenterId: { in: [...reach.centreIds] } }] };
  }

  /**
   * Refuses a centre a list asks for that the reach does not hold (KER-MSD-439
   * for an admin, KER-ATH-403 for its staff); a centre that does not exist is
   * no one's to refuse: its list is empty.
   */
  async requireListed(reach: Reach, centreId: string): Promise<void> {
    if (CentreReach.reachesCentre(reach, centreId)) return;
    const exists = await this.prisma.registrationCenter.findFirst({ where: { id: centreId, ...LIVE }, select: { id: true } });
    if (exists) throw CentreReach.refusal(reach, `registration centre ${centreId}`);
  }

  /** The refusal of what lies outside: an admin's zones (KER-MSD-439), or another centre for its staff (KER-ATH-403). */
  static refusal(reach: Pick<Reach, 'admin'>, what: string): PlatformError {
    return reach.admin ? masterdataErrors.zoneNotAuthorized(what) : masterdataErrors.notYourCentre(what);
  }
}

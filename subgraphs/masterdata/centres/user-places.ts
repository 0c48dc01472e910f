import { ZoneScope, type ZoneService } from '../devices/zones.js';
import { CentreReach, type Caller, type Reach } from './reach.js';
import type { CentreUserStore } from './storage/centre-users.js';

/**
 * Where users are placed, as master data knows it: the zones they are mapped
 * to (ZoneUser) and the registration centre they work at. Other components
 * ask it here, never in these tables (auth's users list filters and scopes
 * its users by it). A user is placed in a zone when mapped to it or working
 * at a live centre of it; a zone holds the users placed in it and in every
 * zone below it.
 */
export class UserPlaces {
  constructor(
    private readonly users: Pick<CentreUserStore, 'usersOf' | 'placedIn' | 'centresOfUsers' | 'mapping'>,
    private readonly zones: Pick<ZoneService, 'pathOf' | 'coveredCodes'>,
    private readonly reach: Pick<CentreReach, 'of'>,
  ) {}

  /**
   * The users placed as asked: in a zone or below it (none for a zone that
   * does not exist), at a centre, or both. `seenBy`: only where that caller
   * sees (the zones it covers, the centres it reaches), as the fields that
   * show a user's zones and centre to it; none elsewhere.
   */
  async placedUsers(filter: { zoneCode?: string | null; regCenterId?: string | null }, seenBy?: Caller): Promise<Set<string>> {
    const reach = seenBy ? await this.reach.of(seenBy) : undefined;
    const [inZone, atCentre] = await Promise.all([
      filter.zoneCode ? this.usersOfZone(filter.zoneCode, reach) : Promise.resolve(undefined),
      filter.regCenterId ? this.usersOfCentre(filter.regCenterId, reach) : Promise.resolve(undefined),
    ]);
    if (inZone && atCentre) return new Set([...inZone].filter((userId) => atCentre.has(userId)));
    return inZone ?? atCentre ?? new Set();
  }

  /** The users placed in a zone or below it (none for an unknown zone), only in the zones of the reach given. */
  private async usersOfZone(zoneCode: string, reach?: Reach): Promise<Set<string>> {
    const path = await this.zones.pathOf(zoneCode);
    if (path === undefined) return new Set();
    const codes = await this.zones.coveredCodes(new ZoneScope('', [path]));
    return this.placedIn(reach ? codes.filter((code) => reach.admin && reach.zoneCodes.has(code)) : codes, []);
  }

  /** The users mapped to a centre (its live mappings, as RegistrationCentre.users lists them); a centre outside the reach given: none. */
  private async usersOfCentre(regCenterId: string, reach?: Reach): Promise<Set<string>> {
    if (reach && !CentreReach.reachesCentre(reach, regCenterId)) return new Set();
    return new Set(await this.users.usersOf(regCenterId));
  }

  /**
   * The users an admin administers: those placed in the zones it covers (its
   * mapped zones and those below them), and the staff of the centres it
   * reaches (CentreReach). None for a caller without an admin role.
   */
  async usersAdministeredBy(caller: Caller): Promise<Set<string>> {
    const reach = await this.reach.of(caller);
    return reach.admin ? this.placedIn([...reach.zoneCodes], [...reach.centreIds]) : new Set();
  }

  /** The users mapped to one of these zones, or working at one of these centres or at a centre of one of these zones: one statement. */
  private async placedIn(zoneCodes: readonly string[], centreIds: readonly string[]): Promise<Set<string>> {
    if (!zoneCodes.length && !centreIds.length) return new Set();
    return this.users.placedIn(zoneCodes, centreIds);
  }

  /** The centre each user works at (its live mapping: one at a time, by MOSIP's rule), in one query for a page of users. */
  async centresOfUsers(userIds: readonly string[]): Promise<Map<string, string>> {
    const centres = new Map<string, string>();
    for (const row of await this.users.centresOfUsers(userIds)) if (!centres.has(row.userId)) centres.set(row.userId, row.regCenterId);
    return centres;
  }

  /**
   * Whether a user worked at a centre at an instant (the registration
   * processor's check of who made a packet): the mapping's current or last
   * period covers it, from its creation (a re-mapping starts a new period) to
   * its removal or deactivation. An earlier, closed period is not kept, so a
   * packet made then and checked after a re-mapping is refused: never wrongly let in.
   */
  async workedAt(regCenterId: string, userId: string, at: Date): Promise<boolean> {
    const row = await this.users.mapping({ regCenterId, userId });
    if (!row || row.createdAt > at) return false;
    if (row.isActive && !row.isDeleted) return true;
    const ended = row.deletedAt ?? row.updatedAt ?? row.changedAt;
    return ended > at;
  }

  /**
   * The centre a user works at as a caller may see it: its staff see their
   * own centre, admins the centres of their zones (as RegistrationCentre.users);
   * null for another centre, as for a user who works at none.
   */
  static centreSeenBy(reach: Reach, regCenterId: string | null): string | null {
    return regCenterId !== null && CentreReach.reachesCentre(reach, regCenterId) ? regCenterId : null;
  }
}

import type { Connection, PageArgs } from '../../../lib/graph/connection.js';
import type { EventBus } from '../../../lib/events.js';
import type { NestedList } from '../../../lib/graph/nested.js';
import type { Clock } from '../../../lib/time.js';
import type { DeviceFilter, DeviceRow, DeviceService } from '../devices/service.js';
import type { ZoneService } from '../devices/zones.js';
import { holidayDates, holidayIdOf, type HolidayFilter, type HolidayRow } from '../holidays/service.js';
import { parsePair } from '../keys.js';
import { wholeList } from '../paged.js';
import type { MachineFilter, MachineRow } from './machines.js';
import { mapUserToCentre, unmapUserFromCentre, type UserMapping } from './map-user.js';
import { CentreReach, type Reach } from './reach.js';
import type { References } from './references.js';
import type { CentreUserRow, CentreUserStore } from './storage/centre-users.js';
import type { CentreFilter, CentreRow, CentreStore } from './storage/centres.js';
import type { CentreLists } from './storage/lists.js';
import { workingDaysOf, type WorkingDay } from './working-days.js';
import { CENTRE, createCentre, deleteCentre, liveCentre, updateCentre, type CentreInput, type CentreWriting } from './write-centre.js';

export type { CentreFilter, CentreInput, CentreRow, CentreUserRow, WorkingDay };
export { WEEK_DAYS, type WeekDay } from './working-days.js';

/**
 * Registration centres, one row per language, with their working days and
 * the users working there. Every write checks what it points to (language,
 * locations, zone) before it changes anything; deletes are soft
 * (write-centre.ts). Every caller acts in its own scope: an admin writes the
 * centres of its zones, as they are and as they will be, and maps users to
 * them only (KER-MSD-439, map-user.ts); who works at a centre is read by its
 * staff and the admins of its zone.
 */
export class CentreService {
  private readonly writing: CentreWriting;
  private readonly mapping: UserMapping;

  constructor(
    private readonly store: CentreStore,
    private readonly users: CentreUserStore,
    clock: Clock,
    references: References,
    userExists: (userId: string) => Promise<boolean>,
    zones: Pick<ZoneService, 'guardOf'>,
    private readonly lists: CentreLists,
    private readonly devices: Pick<DeviceService, 'atCentres'>,
    /** where a centre closed (deactivated, deleted) is announced: what is planned there hears of it */
    private readonly events?: Pick<EventBus, 'publish'>,
  ) {
    this.writing = { store, clock, references, zones };
    this.mapping = { centres: store, users, clock, references, zones, userExists };
  }

  /** A new centre, or an existing centre's row in another language (a soft-deleted row comes back). */
  create(by: string, input: CentreInput): Promise<CentreRow> {
    return createCentre(this.writing, by, input);
  }

  /** A centre's row in a language; the shared fields change in every language. */
  async update(by: string, input: CentreInput & { id: string }): Promise<CentreRow> {
    const row = await updateCentre(this.writing, by, input);
    if (!row.isActive) await this.events?.publish('registrationCentre.closed', { centreId: row.id, how: 'deactivated' });
    return row;
  }

  /** Soft-deletes the centre in every language, once nothing is placed at it (MOSIP's dependency check). */
  async delete(by: string, id: string): Promise<string> {
    const deletedId = await deleteCentre(this.writing, by, id);
    await this.events?.publish('registrationCentre.closed', { centreId: deletedId, how: 'deleted' });
    return deletedId;
  }

  get(id: string, langCode: string): Promise<CentreRow> {
    return liveCentre(this.store, id, langCode);
  }

  /** The centres of a language, whole (at most LIST_LIMIT: refused beyond). */
  ofLanguage(langCode: string): Promise<CentreRow[]> {
    return wholeList('registration centres', 'registrationCentres', (take) => this.store.ofLanguage(langCode, take));
  }

  async workingDays(id: string, langCode: string): Promise<WorkingDay[]> {
    await this.get(id, langCode);
    return workingDaysOf(await this.store.workingDays({ id, langCode }));
  }

  /** The working days of a page of centres, in one query. */
  async workingDaysOfMany(keys: readonly string[]): Promise<Map<string, WorkingDay[]>> {
    const pairs = keys.map(parsePair);
    const rows = await this.store.workingDaysOfPairs(pairs);
    return new Map(keys.map((key, i) => [key, workingDaysOf(rows.filter((r) => r.regCenterId === pairs[i]![0] && r.langCode === pairs[i]![1]))]));
  }

  list(page: PageArgs, filter?: CentreFilter | null): Promise<Connection<CentreRow>> {
    return this.store.page(page, filter);
  }

  /** Centres by "id langCode" keys (entity references), in one query; a missing language falls back to another. */
  async byKeys(keys: readonly string[]): Promise<Map<string, CentreRow>> {
    const pairs = keys.map(parsePair);
    const rows = await this.store.byIds([...new Set(pairs.map(([id]) => id))]);
    const found = new Map<string, CentreRow>();
    keys.forEach((key, i) => {
      const [id, langCode] = pairs[i]!;
      const row = rows.find((r) => r.id === id && r.langCode === langCode) ?? rows.find((r) => r.id === id);
      if (row) found.set(key, row);
    });
    return found;
  }

  // --- the users of a centre (map-user.ts) ---

  /** Maps a user to a centre of the caller's zones: one centre at a time (MOSIP's rule); a removed mapping comes back. */
  mapUser(by: string, userId: string, regCenterId: string): Promise<CentreUserRow> {
    return mapUserToCentre(this.mapping, by, userId, regCenterId);
  }

  /** Unmaps a user from a centre of the caller's zones. */
  unmapUser(by: string, userId: string, regCenterId: string): Promise<CentreUserRow> {
    return unmapUserFromCentre(this.mapping, by, userId, regCenterId);
  }

  /** Who works at a centre, and how many, is for its staff and the admins of its zone: KER-ATH-403 (staff), KER-MSD-439 (admins) for the others. */
  requireReach(reach: Reach, regCenterId: string): void {
    if (!CentreReach.reachesCentre(reach, regCenterId)) throw CentreReach.refusal(reach, `${CENTRE} ${regCenterId}`);
  }

  // --- the lists under each centre of a page: each batched over the page (storage/lists.ts), each as asked for one centre alone ---

  /** The users of a centre the caller reaches (KER-ATH-403 for staff, KER-MSD-439 for admins otherwise). */
  usersOf(reach: Reach, centreId: string): NestedList<CentreUserRow> {
    this.requireReach(reach, centreId);
    return this.lists.users();
  }

  /**
   * The machines of a centre the caller reaches, in the centre's language:
   * what `machines(filter: {regCenterId, langCode})` answers for it (every
   * machine at a centre the caller reaches is one it reaches).
   */
  machinesOf(reach: Reach, centre: Pick<CentreRow, 'id' | 'langCode'>, filter?: MachineFilter | null): NestedList<MachineRow> {
    this.requireReach(reach, centre.id);
    return this.lists.machines({
      langCode: centre.langCode,
      ...(filter?.zoneCode ? { zoneCode: filter.zoneCode } : {}),
      ...(filter?.name ? { name: filter.name } : {}),
      ...(typeof filter?.isActive === 'boolean' ? { isActive: filter.isActive } : {}),
    });
  }

  /**
   * The devices of a centre the caller reaches, in the centre's language,
   * among those of the caller's zones: what `devices(filter: {regCenterId,
   * langCode})` answers for it.
   */
  devicesOf(reach: Reach, userId: string, centre: Pick<CentreRow, 'id' | 'langCode'>, filter?: DeviceFilter | null): NestedList<DeviceRow> {
    this.requireReach(reach, centre.id);
    return this.devices.atCentres(userId, { ...filter, langCode: centre.langCode, regCenterId: null });
  }

  /**
   * The holidays a centre keeps: those of its holiday location (the parent
   * of the list), in the centre's language, as `holidays(filter:
   * {locationCode, langCode})` answers them to any master data reader.
   */
  holidaysOf(centre: Pick<CentreRow, 'langCode'>, filter?: HolidayFilter | null): NestedList<HolidayRow> {
    return this.lists.holidays(
      {
        langCode: centre.langCode,
        ...holidayDates(filter),
        ...(typeof filter?.isActive === 'boolean' ? { isActive: filter.isActive } : {}),
      },
      holidayIdOf,
    );
  }

  /** How many live users each centre has, in one grouped query (requireReach first). */
  userCounts(centreIds: readonly string[]): Promise<Map<string, number>> {
    return this.users.countsAt(centreIds);
  }
}

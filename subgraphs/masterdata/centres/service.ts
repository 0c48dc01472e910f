import type { Prisma, PrismaClient, RegistrationCenter, RegistrationCenterUser, RegistrationCenterWorkingDay } from '../../../generated/prisma/client.js';
import { connection, type Connection, type PageArgs } from '../../../lib/graph/connection.js';
import type { Clock } from '../../../lib/time.js';
import { created, deleted, LIVE, updated } from '../audit.js';
import type { ZoneGuard, ZoneService } from '../devices/zones.js';
import { masterdataErrors } from '../errors.js';
import { cursorAt, pairKey, parsePair } from '../keys.js';
import { wholeList } from '../paged.js';
import { likeLiteral } from '../search.js';
import { isUniqueViolation } from '../../../lib/db/unique.js';
import { underLock, type Tx } from '../../../lib/db/lock.js';
import { CentreReach, type Reach } from './reach.js';
import { nextId, type References } from './references.js';
import type { NestedList } from '../../../lib/graph/nested.js';
import type { DeviceFilter, DeviceRow, DeviceService } from '../devices/service.js';
import { holidayDates, type HolidayFilter, type HolidayRow } from '../holidays/service.js';
import type { MachineFilter, MachineRow } from './machines.js';
import type { CentreListsStorage } from './storage.js';

export type CentreRow = RegistrationCenter;
export type CentreUserRow = RegistrationCenterUser;

export const WEEK_DAYS = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];
const DAY_NAMES: Record<WeekDay, string> = { MON: 'Monday', TUE: 'Tuesday', WED: 'Wednesday', THU: 'Thursday', FRI: 'Friday', SAT: 'Saturday', SUN: 'Sunday' };
/** A new centre opens Monday to Friday unless told otherwise. */
const DEFAULT_WORKING: ReadonlySet<WeekDay> = new Set(['MON', 'TUE', 'WED', 'THU', 'FRI']);

export interface WorkingDay {
  dayCode: WeekDay;
  name: string;
  order: number;
  isWorking: boolean;
}

export interface CentreInput {
  id?: string | null;
  langCode: string;
  name: string;
  centerTypeCode: string;
  addressLine1?: string | null;
  addressLine2?: string | null;
  addressLine3?: string | null;
  latitude?: string | null;
  longitude?: string | null;
  locationCode: string;
  holidayLocationCode: string;
  contactPhone?: string | null;
  contactPerson?: string | null;
  numberOfKiosks?: number | null;
  workingHours?: string | null;
  perKioskProcessTime?: string | null;
  centerStartTime?: string | null;
  centerEndTime?: string | null;
  lunchStartTime?: string | null;
  lunchEndTime?: string | null;
  timeZone?: string | null;
  zoneCode: string;
  isActive?: boolean | null;
  workingDays?: readonly { dayCode: WeekDay; isWorking: boolean }[] | null;
}

export interface CentreFilter {
  langCode?: string | null;
  zoneCode?: string | null;
  locationCode?: string | null;
  centerTypeCode?: string | null;
  name?: string | null;
  isActive?: boolean | null;
}

/** At most this many rows from the REST "all of a language" reads. */

/** The fields every language of a centre shares; the others (name, address, contact person) are the language's own. */
function sharedFields(input: CentreInput) {
  return {
    centerTypeCode: input.centerTypeCode,
    latitude: input.latitude ?? null,
    longitude: input.longitude ?? null,
    locationCode: input.locationCode,
    holidayLocationCode: input.holidayLocationCode,
    contactPhone: input.contactPhone ?? null,
    numberOfKiosks: input.numberOfKiosks ?? 1,
    workingHours: input.workingHours ?? null,
    perKioskProcessTime: input.perKioskProcessTime ?? null,
    centerStartTime: input.centerStartTime ?? null,
    centerEndTime: input.centerEndTime ?? null,
    lunchStartTime: input.lunchStartTime ?? null,
    lunchEndTime: input.lunchEndTime ?? null,
    timeZone: input.timeZone ?? null,
    zoneCode: input.zoneCode,
    isActive: input.isActive ?? true,
  };
}

const ownFields = (input: CentreInput) => ({
  name: input.name,
  addressLine1: input.addressLine1 ?? null,
  addressLine2: input.addressLine2 ?? null,
  addressLine3: input.addressLine3 ?? null,
  contactPerson: input.contactPerson ?? null,
});

/** "HH:mm" or "HH:mm:ss" as seconds of the day. */
const secondsOf = (time: string | null | undefined): number | undefined => {
  const match = time ? /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(time) : null;
  return match ? Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3] ?? 0) : undefined;
};

/** MOSIP's checks of a centre's hours and coordinates. */
function checkHoursAndPlace(input: CentreInput): void {
  const [start, end, lunchStart, lunchEnd] = [input.centerStartTime, input.centerEndTime, input.lunchStartTime, input.lunchEndTime].map(secondsOf);
  if (start !== undefined && end !== undefined && start >= end)
    throw masterdataErrors.centreHours('KER-MSD-309', 'Center Start Time must be smaller than Center End Time');
  if (lunchStart !== undefined && lunchEnd !== undefined && lunchStart >= lunchEnd)
    throw masterdataErrors.centreHours('KER-MSD-308', 'Center Lunch Start Time must be smaller than Center Lunch End Time');
  if (lunchStart !== undefined && start !== undefined && lunchStart < start)
    throw masterdataErrors.centreHours('KER-MSD-259', 'Lunch Start time cannot less than Center Start time');
  if (lunchEnd !== undefined && end !== undefined && lunchEnd > end)
    throw masterdataErrors.centreHours('KER-MSD-260', 'Lunch end Time cannot be Greater Than Center End Time');
  const inRange = (value: string | null | undefined, limit: number) => value == null || (/^-?\d{1,3}(\.\d+)?$/.test(value) && Math.abs(Number(value)) <= limit);
  if (!inRange(input.latitude, 90) || !inRange(input.longitude, 180)) throw masterdataErrors.centreCoordinates();
}

export const workingDaysOf = (rows: readonly Pick<RegistrationCenterWorkingDay, 'dayCode' | 'isWorking'>[]): WorkingDay[] =>
  WEEK_DAYS.map((dayCode, index) => ({
    dayCode,
    name: DAY_NAMES[dayCode],
    order: index + 1,
    isWorking: rows.find((row) => row.dayCode === dayCode)?.isWorking ?? false,
  }));

/** What KER-MSD-439 names. */
const CENTRE = 'registration centre';

/** The zones a centre lies in now (every live language), read with the write's transaction. */
const zonesNow = async (tx: Tx, id: string): Promise<string[]> =>
  (await tx.registrationCenter.findMany({ where: { id, ...LIVE }, select: { zoneCode: true } })).map((row) => row.zoneCode);

/**
 * Registration centres, one row per language, with their working days and
 * the users working there. Every write checks what it points to (language,
 * locations, zone) before it changes anything; deletes are soft. Every
 * caller acts in its own scope: an admin writes the centres of its zones, as
 * they are and as they will be, and maps users to them only (KER-MSD-439);
 * who works at a centre is read by its staff and the admins of its zone.
 */
export class CentreService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
    private readonly references: References,
    private readonly userExists: (userId: string) => Promise<boolean>,
    private readonly zones: ZoneService,
    private readonly lists: CentreListsStorage,
    private readonly devices: DeviceService,
  ) {}

  private async check(input: CentreInput): Promise<void> {
    checkHoursAndPlace(input);
    await this.references.language(input.langCode);
    await this.references.location(input.locationCode);
    await this.references.location(input.holidayLocationCode);
    if (!(await this.references.zoneExists(input.zoneCode))) throw masterdataErrors.centreZoneNotFound(input.zoneCode);
  }

  /** The working days of every live language of a centre: the stored ones, then the given ones over them. */
  private async writeWorkingDays(tx: Tx, id: string, by: string, given: CentreInput['workingDays']): Promise<void> {
    const now = this.clock.now();
    const languages = (await tx.registrationCenter.findMany({ where: { id, ...LIVE }, select: { langCode: true } })).map((row) => row.langCode);
    const stored = await tx.registrationCenterWorkingDay.findMany({ where: { regCenterId: id } });
    const days = new Map<string, boolean>(WEEK_DAYS.map((day) => [day, DEFAULT_WORKING.has(day)]));
    for (const row of stored) if (!row.isDeleted) days.set(row.dayCode, row.isWorking);
    for (const day of given ?? []) days.set(day.dayCode, day.isWorking);
    for (const langCode of languages) {
      for (const [dayCode, isWorking] of days) {
        const key = { regCenterId: id, dayCode, langCode };
        const row = stored.find((r) => r.langCode === langCode && r.dayCode === dayCode);
        if (row && !row.isDeleted && row.isWorking === isWorking) continue;
        const where = { regCenterId_dayCode_langCode: key };
        if (!row) await tx.registrationCenterWorkingDay.create({ data: { ...key, isWorking, ...created(by, now) } });
        else if (row.isDeleted)
          await tx.registrationCenterWorkingDay.update({ where, data: { isWorking, isActive: true, ...created(by, now), updatedBy: null, updatedAt: null } });
        else await tx.registrationCenterWorkingDay.update({ where, data: { isWorking, ...updated(by, now) } });
      }
    }
  }

  /** A new centre, or an existing centre's row in another language (a soft-deleted row comes back). */
  async create(by: string, input: CentreInput): Promise<CentreRow> {
    await this.check(input);
    const guard = await this.zones.guardOf(by);
    const now = this.clock.now();
    try {
      return await underLock(this.prisma, 'md_registration_center', async (tx) => {
        const id = input.id ?? (await nextId(tx, 'centre'));
        // Another language of a centre rewrites its shared fields, the zone among them: the centre must be the caller's already.
        guard.require(CENTRE, input.zoneCode, ...(await zonesNow(tx, id)));
        const existing = await tx.registrationCenter.findUnique({ where: { id_langCode: { id, langCode: input.langCode } } });
        if (existing && !existing.isDeleted) throw masterdataErrors.centreExists(id, input.langCode);
        const data = { ...sharedFields(input), ...ownFields(input), ...created(by, now) };
        const row = existing
          ? await tx.registrationCenter.update({
              where: { id_langCode: { id, langCode: input.langCode } },
              data: { ...data, updatedBy: null, updatedAt: null },
            })
          : await tx.registrationCenter.create({ data: { id, langCode: input.langCode, ...data } });
        await tx.registrationCenter.updateMany({
          where: { id, langCode: { not: input.langCode }, ...LIVE },
          data: { ...sharedFields(input), ...updated(by, now) },
        });
        await this.writeWorkingDays(tx, id, by, input.workingDays);
        return row;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw masterdataErrors.centreExists(input.id ?? '', input.langCode);
      throw error;
    }
  }

  /** A centre's row in a language; the shared fields change in every language. */
  async update(by: string, input: CentreInput & { id: string }): Promise<CentreRow> {
    await this.get(input.id, input.langCode);
    await this.check(input);
    const guard = await this.zones.guardOf(by);
    const now = this.clock.now();
    return underLock(this.prisma, 'md_registration_center', async (tx) => {
      guard.require(CENTRE, input.zoneCode, ...(await zonesNow(tx, input.id)));
      const row = await tx.registrationCenter.update({
        where: { id_langCode: { id: input.id, langCode: input.langCode } },
        data: { ...sharedFields(input), ...ownFields(input), ...updated(by, now) },
      });
      await tx.registrationCenter.updateMany({
        where: { id: input.id, langCode: { not: input.langCode }, ...LIVE },
        data: { ...sharedFields(input), ...updated(by, now) },
      });
      if (input.workingDays?.length) await this.writeWorkingDays(tx, input.id, by, input.workingDays);
      return row;
    });
  }

  /** Soft-deletes the centre in every language, once nothing is placed at it (MOSIP's dependency check). */
  async delete(by: string, id: string): Promise<string> {
    const guard = await this.zones.guardOf(by);
    const now = this.clock.now();
    return underLock(this.prisma, 'md_registration_center', async (tx) => {
      const zones = await zonesNow(tx, id);
      if (!zones.length) throw masterdataErrors.centreNotFound(id);
      guard.require(CENTRE, ...zones);
      const where = { regCenterId: id, ...LIVE };
      const [machines, devices, users] = await Promise.all([
        tx.machine.count({ where }),
        tx.device.count({ where }),
        tx.registrationCenterUser.count({ where }),
      ]);
      const mapped = Object.entries({ machines, devices, users }).filter(([, count]) => count > 0);
      if (mapped.length) throw masterdataErrors.centreDependency(`centre ${id} has ${mapped.map(([what, count]) => `${count} ${what}`).join(', ')} mapped`);
      await tx.registrationCenter.updateMany({ where: { id, ...LIVE }, data: deleted(by, now) });
      await tx.registrationCenterWorkingDay.updateMany({ where, data: deleted(by, now) });
      return id;
    });
  }

  async get(id: string, langCode: string): Promise<CentreRow> {
    const row = await this.prisma.registrationCenter.findFirst({ where: { id, langCode, ...LIVE } });
    if (!row) throw masterdataErrors.centreNotFound(id);
    return row;
  }

  /** The centres of a language, whole (at most LIST_LIMIT: refused beyond). */
  ofLanguage(langCode: string): Promise<CentreRow[]> {
    return wholeList('registration centres', 'registrationCentres', (take) =>
      this.prisma.registrationCenter.findMany({ where: { langCode, ...LIVE }, orderBy: { id: 'asc' }, take }),
    );
  }

  async workingDays(id: string, langCode: string): Promise<WorkingDay[]> {
    await this.get(id, langCode);
    return workingDaysOf(await this.prisma.registrationCenterWorkingDay.findMany({ where: { regCenterId: id, langCode, ...LIVE } }));
  }

  /** The working days of a page of centres, in one query. */
  async workingDaysOfMany(keys: readonly string[]): Promise<Map<string, WorkingDay[]>> {
    const pairs = keys.map(parsePair);
    const rows = await this.prisma.registrationCenterWorkingDay.findMany({
      where: { OR: pairs.map(([regCenterId, langCode]) => ({ regCenterId, langCode })), ...LIVE },
    });
    return new Map(keys.map((key, i) => [key, workingDaysOf(rows.filter((r) => r.regCenterId === pairs[i]![0] && r.langCode === pairs[i]![1]))]));
  }

  list(page: PageArgs, filter?: CentreFilter | null): Promise<Connection<CentreRow>> {
    const where: Prisma.RegistrationCenterWhereInput = {
      ...LIVE,
      ...(filter?.langCode ? { langCode: filter.langCode } : {}),
      ...(filter?.zoneCode ? { zoneCode: filter.zoneCode } : {}),
      ...(filter?.locationCode ? { locationCode: filter.locationCode } : {}),
      ...(filter?.centerTypeCode ? { centerTypeCode: filter.centerTypeCode } : {}),
      ...(filter?.name ? { name: { contains: likeLiteral(filter.name), mode: 'insensitive' } } : {}),
      ...(filter?.isActive != null ? { isActive: filter.isActive } : {}),
    };
    return connection(
      page,
      (row) => pairKey(row.id, row.langCode),
      (query) =>
        this.prisma.registrationCenter.findMany({
          where,
          orderBy: [{ id: 'asc' }, { langCode: 'asc' }],
          ...cursorAt(query, ([id, langCode]) => ({ id_langCode: { id, langCode } })),
        }),
      () => this.prisma.registrationCenter.count({ where }),
    );
  }

  /** Centres by "id langCode" keys (entity references), in one query; a missing language falls back to another. */
  async byKeys(keys: readonly string[]): Promise<Map<string, CentreRow>> {
    const pairs = keys.map(parsePair);
    const rows = await this.prisma.registrationCenter.findMany({
      where: { id: { in: [...new Set(pairs.map(([id]) => id))] }, ...LIVE },
      orderBy: { langCode: 'asc' },
    });
    const found = new Map<string, CentreRow>();
    keys.forEach((key, i) => {
      const [id, langCode] = pairs[i]!;
      const row = rows.find((r) => r.id === id && r.langCode === langCode) ?? rows.find((r) => r.id === id);
      if (row) found.set(key, row);
    });
    return found;
  }

  // --- the users of a centre ---

  /**
   * Maps a user to a centre of the caller's zones. A user works at one centre
   * at a time (MOSIP's rule): a user of another centre is unmapped there
   * first, by that centre's admin. A removed mapping comes back.
   */
  async mapUser(by: string, userId: string, regCenterId: string): Promise<CentreUserRow> {
    const guard = await this.zones.guardOf(by);
    if (!(await this.references.centreExists(regCenterId))) throw masterdataErrors.mappingCentreNotFound(regCenterId);
    await this.requireCentreZone(this.prisma, guard, regCenterId);
    if (!(await this.userExists(userId))) throw masterdataErrors.userNotFound(userId);
    const now = this.clock.now();
    try {
      return await underLock(this.prisma, `md_reg_center_user:${userId}`, async (tx) => {
        await this.requireCentreZone(tx, guard, regCenterId);
        const mappings = await tx.registrationCenterUser.findMany({ where: { userId } });
        const elsewhere = mappings.find((row) => !row.isDeleted && row.regCenterId !== regCenterId);
        if (elsewhere) throw masterdataErrors.mappedElsewhere(elsewhere.regCenterId);
        const here = mappings.find((row) => row.regCenterId === regCenterId);
        if (here && !here.isDeleted) throw masterdataErrors.mappingExists();
        const key = { regCenterId, userId };
        return here
          ? tx.registrationCenterUser.update({
              where: { regCenterId_userId: key },
              data: { isActive: true, ...created(by, now), updatedBy: null, updatedAt: null },
            })
          : tx.registrationCenterUser.create({ data: { ...key, ...created(by, now) } });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw masterdataErrors.mappingExists();
      throw error;
    }
  }

  /** Unmaps a user from a centre of the caller's zones. */
  async unmapUser(by: string, userId: string, regCenterId: string): Promise<CentreUserRow> {
    const guard = await this.zones.guardOf(by);
    return underLock(this.prisma, `md_reg_center_user:${userId}`, async (tx) => {
      await this.requireCentreZone(tx, guard, regCenterId);
      const { count } = await tx.registrationCenterUser.updateMany({ where: { userId, regCenterId, ...LIVE }, data: deleted(by, this.clock.now()) });
      if (!count) throw masterdataErrors.mappingNotFound(userId, regCenterId);
      return tx.registrationCenterUser.findUniqueOrThrow({ where: { regCenterId_userId: { regCenterId, userId } } });
    });
  }

  /** KER-MSD-439 for a centre outside the caller's zones (one that no longer exists is nobody's to refuse: the caller learns "not found"). */
  private async requireCentreZone(db: Tx | PrismaClient, guard: ZoneGuard, regCenterId: string): Promise<void> {
    guard.require(
      CENTRE,
      ...(await db.registrationCenter.findMany({ where: { id: regCenterId, ...LIVE }, select: { zoneCode: true } })).map((row) => row.zoneCode),
    );
  }

  /** Who works at a centre, and how many, is for its staff and the admins of its zone: KER-ATH-403 (staff), KER-MSD-439 (admins) for the others. */
  requireReach(reach: Reach, regCenterId: string): void {
    if (!CentreReach.reachesCentre(reach, regCenterId)) throw CentreReach.refusal(reach, `${CENTRE} ${regCenterId}`);
  }

  // --- the lists under each centre of a page: each batched over the page (storage.ts), each as asked for one centre alone ---

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
    return this.lists.devices(() => this.devices.conditions(userId, { ...filter, langCode: centre.langCode, regCenterId: null }));
  }

  /**
   * The holidays a centre keeps: those of its holiday location (the parent
   * of the list), in the centre's language, as `holidays(filter:
   * {locationCode, langCode})` answers them to any master data reader.
   */
  holidaysOf(centre: Pick<CentreRow, 'langCode'>, filter?: HolidayFilter | null): NestedList<HolidayRow> {
    return this.lists.holidays({
      langCode: centre.langCode,
      ...holidayDates(filter),
      ...(typeof filter?.isActive === 'boolean' ? { isActive: filter.isActive } : {}),
    });
  }

  /** How many live users each centre has, in one grouped query (requireReach first). */
  async userCounts(centreIds: readonly string[]): Promise<Map<string, number>> {
    const groups = await this.prisma.registrationCenterUser.groupBy({
      by: ['regCenterId'],
      where: { regCenterId: { in: [...centreIds] }, ...LIVE },
      _count: { _all: true },
    });
    return new Map(groups.map((group) => [group.regCenterId, group._count._all]));
  }
}

import type { Clock } from '../../../lib/time.js';
import { created, deleted, updated } from '../audit.js';
import type { ZoneService } from '../devices/zones.js';
import { masterdataErrors } from '../errors.js';
import type { References } from './references.js';
import type { CentreRow, CentreStore, LockedCentres } from './storage/centres.js';
import { workingDayWrites, type GivenDays } from './working-days.js';

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
  workingDays?: GivenDays;
}

/** What writing a centre works with: its tables, the clock, what it points to, and the caller's zones. */
export interface CentreWriting {
  store: Pick<CentreStore, 'live' | 'locked'>;
  clock: Clock;
  references: Pick<References, 'language' | 'location' | 'zoneExists'>;
  zones: Pick<ZoneService, 'guardOf'>;
}

/** What KER-MSD-439 names. */
export const CENTRE = 'registration centre';

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
export function checkHoursAndPlace(input: CentreInput): void {
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

/** Hours and coordinates, then what the centre points to: its language, locations and zone. */
async function check(writing: CentreWriting, input: CentreInput): Promise<void> {
  checkHoursAndPlace(input);
  await writing.references.language(input.langCode);
  await writing.references.location(input.locationCode);
  await writing.references.location(input.holidayLocationCode);
  if (!(await writing.references.zoneExists(input.zoneCode))) throw masterdataErrors.centreZoneNotFound(input.zoneCode);
}

/** The working days of every live language of a centre: the stored ones, then the given ones over them (working-days.ts). */
async function writeWorkingDays(inLock: LockedCentres, clock: Clock, id: string, by: string, given: GivenDays): Promise<void> {
  const now = clock.now();
  const languages = await inLock.languagesOf(id);
  const stored = await inLock.workingDaysOf(id);
  for (const { langCode, dayCode, isWorking, write } of workingDayWrites(languages, stored, given)) {
    const key = { regCenterId: id, dayCode, langCode };
    if (write === 'create') await inLock.createWorkingDay(key, { isWorking, ...created(by, now) });
    else if (write === 'revive') await inLock.updateWorkingDay(key, { isWorking, isActive: true, ...created(by, now), updatedBy: null, updatedAt: null });
    else await inLock.updateWorkingDay(key, { isWorking, ...updated(by, now) });
  }
}

/** A centre live in a language, or KER-MSD-215. */
export async function liveCentre(store: Pick<CentreStore, 'live'>, id: string, langCode: string): Promise<CentreRow> {
  const row = await store.live({ id, langCode });
  if (!row) throw masterdataErrors.centreNotFound(id);
  return row;
}

/**
 * A new centre, or an existing centre's row in another language (a
 * soft-deleted row comes back): in the caller's zones, and so must the
 * centre already be when it has other languages (their shared fields, the
 * zone among them, change too).
 */
export async function createCentre(writing: CentreWriting, by: string, input: CentreInput): Promise<CentreRow> {
  await check(writing, input);
  const guard = await writing.zones.guardOf(by);
  const now = writing.clock.now();
  return writing.store.locked(
    async (inLock) => {
      const id = input.id ?? (await inLock.nextId());
      // Another language of a centre rewrites its shared fields, the zone among them: the centre must be the caller's already.
      guard.require(CENTRE, input.zoneCode, ...(await inLock.zonesOf(id)));
      const key = { id, langCode: input.langCode };
      const existing = await inLock.row(key);
      if (existing && !existing.isDeleted) throw masterdataErrors.centreExists(id, input.langCode);
      const data = { ...sharedFields(input), ...ownFields(input), ...created(by, now) };
      const row = existing ? await inLock.rewrite(key, { ...data, updatedBy: null, updatedAt: null }) : await inLock.create(key, data);
      await inLock.updateOtherLanguages(key, { ...sharedFields(input), ...updated(by, now) });
      await writeWorkingDays(inLock, writing.clock, id, by, input.workingDays);
      return row;
    },
    () => masterdataErrors.centreExists(input.id ?? '', input.langCode),
  );
}

/** A centre's row in a language; the shared fields change in every language. The centre's zones, before and after, the caller's. */
export async function updateCentre(writing: CentreWriting, by: string, input: CentreInput & { id: string }): Promise<CentreRow> {
  await liveCentre(writing.store, input.id, input.langCode);
  await check(writing, input);
  const guard = await writing.zones.guardOf(by);
  const now = writing.clock.now();
  return writing.store.locked(async (inLock) => {
    guard.require(CENTRE, input.zoneCode, ...(await inLock.zonesOf(input.id)));
    const key = { id: input.id, langCode: input.langCode };
    const row = await inLock.rewrite(key, { ...sharedFields(input), ...ownFields(input), ...updated(by, now) });
    await inLock.updateOtherLanguages(key, { ...sharedFields(input), ...updated(by, now) });
    if (input.workingDays?.length) await writeWorkingDays(inLock, writing.clock, input.id, by, input.workingDays);
    return row;
  });
}

/** Soft-deletes the centre in every language, once nothing is placed at it (MOSIP's dependency check, KER-MSD-192). */
export async function deleteCentre(writing: CentreWriting, by: string, id: string): Promise<string> {
  const guard = await writing.zones.guardOf(by);
  const now = writing.clock.now();
  return writing.store.locked(async (inLock) => {
    const zones = await inLock.zonesOf(id);
    if (!zones.length) throw masterdataErrors.centreNotFound(id);
    guard.require(CENTRE, ...zones);
    const mapped = Object.entries(await inLock.dependants(id)).filter(([, count]) => count > 0);
    if (mapped.length) throw masterdataErrors.centreDependency(`centre ${id} has ${mapped.map(([what, count]) => `${count} ${what}`).join(', ')} mapped`);
    await inLock.remove(id, deleted(by, now));
    return id;
  });
}

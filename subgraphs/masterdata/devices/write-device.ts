import type { Clock } from '../../../lib/time.js';
import { created, deleted, updated } from '../audit.js';
import { masterdataErrors } from '../errors.js';
import { checkLanguage, insertOrRevive } from '../keys.js';
import type { LanguageStore } from '../storage.js';
import type { DeviceCatalogueService } from './catalogue.js';
import { deviceValidity } from './inputs.js';
import type { DeviceRow, DeviceStore } from './storage/devices.js';
import type { ZoneService } from './zones.js';

/** MOSIP's DeviceDto. */
export interface DeviceInput {
  id: string;
  name: string;
  serialNum: string;
  deviceSpecId: string;
  macAddress: string;
  ipAddress?: string | null;
  langCode: string;
  isActive: boolean;
  validityDateTime: string;
  zoneCode: string;
}

/** What writing a device works with: its table, the languages, the clock, the caller's zones and the catalogue of specifications. */
export interface DeviceWriting {
  store: DeviceStore;
  languages: LanguageStore;
  clock: Clock;
  zones: Pick<ZoneService, 'guardOf'>;
  catalogue: Pick<DeviceCatalogueService, 'specificationExists'>;
}

/** What KER-MSD-439 names. */
const DEVICE = 'device';

/** What a device is apart from its name: the same in each of its languages. */
const sharedFields = (input: DeviceInput, validityDateTime: Date) => ({
  serialNum: input.serialNum,
  deviceSpecId: input.deviceSpecId,
  macAddress: input.macAddress,
  ipAddress: input.ipAddress ?? null,
  zoneCode: input.zoneCode,
  validityDateTime,
  isActive: input.isActive,
});

/**
 * A new device, or a device's row in another language (a deleted row comes
 * back): in one of the caller's zones (KER-MSD-439), of a known
 * specification, valid from an ISO 8601 instant, in the zone its other
 * languages lie in (KER-MSD-069 otherwise).
 */
export async function createDevice(writing: DeviceWriting, by: string, input: DeviceInput): Promise<DeviceRow> {
  const { store, clock, zones, catalogue } = writing;
  await checkLanguage(writing.languages, input.langCode);
  const validity = deviceValidity(input.validityDateTime);
  (await zones.guardOf(by)).require(DEVICE, input.zoneCode);
  if (!(await catalogue.specificationExists(input.deviceSpecId))) {
    throw masterdataErrors.deviceInsert(`device specification ${input.deviceSpecId} not found`);
  }
  const rows = await store.rowsOfId(input.id);
  const other = rows.find((row) => !row.isDeleted && row.langCode !== input.langCode && row.zoneCode !== input.zoneCode);
  if (other) throw masterdataErrors.deviceInsert(`device ${input.id} is in zone ${other.zoneCode} (${other.langCode}): its languages share one zone`);
  const key = { id: input.id, langCode: input.langCode };
  const data = { name: input.name, ...sharedFields(input, validity), ...created(by, clock.now()), updatedBy: null, updatedAt: null };
  return insertOrRevive({
    existing: rows.find((row) => row.langCode === input.langCode),
    duplicate: () => masterdataErrors.deviceInsert(`device ${input.id} already exists in ${input.langCode}`),
    create: () => store.create(key, data),
    revive: () => store.revive(key, data),
    read: () => store.device(key),
  });
}

/** A device's row in a language; what the device is (zone, specification, validity, status) changes in every language. Both zones, before and after, the caller's. */
export async function updateDevice(writing: DeviceWriting, by: string, input: DeviceInput): Promise<DeviceRow> {
  const { store, clock, zones, catalogue } = writing;
  const key = { id: input.id, langCode: input.langCode };
  const row = await store.live(key);
  if (!row) throw masterdataErrors.deviceNotFound(input.id);
  (await zones.guardOf(by)).require(DEVICE, row.zoneCode, input.zoneCode);
  const validity = deviceValidity(input.validityDateTime);
  if (!(await catalogue.specificationExists(input.deviceSpecId))) {
    throw masterdataErrors.deviceUpdate(`device specification ${input.deviceSpecId} not found`);
  }
  return store.rewrite(key, { ...sharedFields(input, validity), ...updated(by, clock.now()) }, input.name);
}

/** Every language of a device of the caller's zones soft-deleted and inactive; refused with `placed` while it is placed at a centre. */
export async function retireDevice(writing: DeviceWriting, by: string, id: string, placed: (id: string) => Error): Promise<string> {
  const { store, clock, zones } = writing;
  const rows = await store.placements(id);
  if (!rows.length) throw masterdataErrors.deviceNotFound(id);
  (await zones.guardOf(by)).require(DEVICE, ...rows.map((row) => row.zoneCode));
  if (rows.some((row) => row.regCenterId)) throw placed(id);
  await store.retire(id, deleted(by, clock.now()));
  return id;
}

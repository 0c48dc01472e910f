// In-memory stand-ins for master data's zone and device tables: the zone and device rules run over them with no database.
import { ManualClock } from '../../lib/time.js';
import { DeviceCatalogueService } from '../../subgraphs/masterdata/devices/catalogue.js';
import type { CatalogueStore } from '../../subgraphs/masterdata/devices/storage/catalogue.js';
import type { DeviceRow, DeviceStore } from '../../subgraphs/masterdata/devices/storage/devices.js';
import type { ZoneRow, ZoneStore, ZoneUserRow } from '../../subgraphs/masterdata/devices/storage/zones.js';
import { ZoneService } from '../../subgraphs/masterdata/devices/zones.js';
import type { LanguageStore } from '../../subgraphs/masterdata/storage.js';
import { fakeAsync } from './partner-fakes.js';

export const NOW = new Date('2026-05-01T10:00:00.000Z');
export const clock = () => new ManualClock(NOW);

/** The audit columns of a row written by the seed, live. */
export const seeded = { createdBy: 'seed', createdAt: NOW, updatedBy: null, updatedAt: null, isDeleted: false, deletedAt: null, changedAt: NOW };

/** Languages rows may be written in: eng and ara. */
export const languages: LanguageStore = { isSupported: (code) => Promise.resolve(code === 'eng' || code === 'ara') };

/** A zone at `path` (its code the last segment), level by depth, in English unless told. */
export const zoneRow = (path: string, row: Partial<ZoneRow> = {}): ZoneRow => {
  const parts = path.split('/');
  return {
    code: parts.at(-1)!,
    langCode: 'eng',
    name: `zone ${parts.at(-1)!}`,
    hierarchyLevel: parts.length - 1,
    hierarchyName: parts.length === 1 ? 'Country' : 'Region',
    parentZoneCode: parts.at(-2) ?? null,
    path,
    isActive: true,
    ...seeded,
    ...row,
  };
};

export const zoneUserRow = (userId: string, zoneCode: string, row: Partial<ZoneUserRow> = {}): ZoneUserRow => ({
  userId,
  zoneCode,
  isActive: true,
  ...seeded,
  ...row,
});

export const deviceRow = (id: string, zoneCode: string, row: Partial<DeviceRow> = {}): DeviceRow => ({
  id,
  langCode: 'eng',
  name: `device ${id}`,
  serialNum: `SN-${id}`,
  deviceSpecId: 'SPEC1',
  macAddress: '00:11:22:33:44:55',
  ipAddress: null,
  zoneCode,
  regCenterId: null,
  validityDateTime: null,
  isActive: true,
  ...seeded,
  ...row,
});

export const live = <T extends { isDeleted: boolean }>(rows: readonly T[]): T[] => rows.filter((row) => !row.isDeleted);
const distinct = <T>(values: readonly T[]): T[] => [...new Set(values)];
/** A path at or below one of these, segment by segment. */
export const atOrBelow = (path: string, paths: readonly string[]) => paths.some((mine) => path === mine || path.startsWith(`${mine}/`));
/** The one row that matches, or a failure as the database's findUniqueOrThrow. */
export const one = <T>(rows: readonly T[], match: (row: T) => boolean): T => {
  const row = rows.find(match);
  if (!row) throw new Error('no such row');
  return row;
};
/** Writes `data` over the rows that match: how many. */
export const writeOver = <T extends object>(rows: readonly T[], match: (row: T) => boolean, data: Partial<T>): number => {
  const matched = rows.filter(match);
  for (const row of matched) Object.assign(row, data);
  return matched.length;
};

/** Master data's zones, zone admins and devices as arrays: what the zone and device stores read and write. */
export class ZoneTables {
  zones: ZoneRow[] = [];
  zoneUsers: ZoneUserRow[] = [];
  devices: DeviceRow[] = [];

  /** The zones' tables as ZoneStore; lists by connection are not faked. */
  zoneStore(): ZoneStore {
    const zonesOf = (code: string) => live(this.zones).filter((zone) => zone.code === code);
    return fakeAsync<ZoneStore>({
      mappedZoneCodes: (userId) => live(this.zoneUsers).flatMap((row) => (row.userId === userId && row.isActive ? [row.zoneCode] : [])),
      pathsOf: (codes) => distinct(live(this.zones).flatMap((zone) => (codes.includes(zone.code) ? [zone.path] : []))),
      pathOf: (code) => zonesOf(code)[0]?.path,
      codesCovered: (paths) => distinct(live(this.zones).flatMap((zone) => (atOrBelow(zone.path, paths) ? [zone.code] : []))),
      codesAtOrBelow: (path) => distinct(live(this.zones).flatMap((zone) => (atOrBelow(zone.path, [path]) ? [zone.code] : []))),
      hierarchy: (paths, langCode, take) =>
        live(this.zones)
          .filter((zone) => atOrBelow(zone.path, paths) && zone.langCode === langCode)
          .sort((a, b) => a.hierarchyLevel - b.hierarchyLevel || a.path.localeCompare(b.path))
          .slice(0, take),
      parentsAmong: (codes) =>
        new Set(live(this.zones).flatMap((zone) => (zone.parentZoneCode && codes.includes(zone.parentZoneCode) ? [zone.parentZoneCode] : []))),
      rowsOfCode: (code) => this.zones.filter((zone) => zone.code === code),
      parentOf: (code) => zonesOf(code)[0] ?? null,
      createZone: (key, data) => (this.zones.push({ ...key, ...data }), this.zones.at(-1)!),
      reviveZone: (key, data) => ({ count: writeOver(this.zones, (z) => z.code === key.code && z.langCode === key.langCode && z.isDeleted, data) }),
      zone: (key) => one(this.zones, (z) => z.code === key.code && z.langCode === key.langCode),
      mappingState: (key) => this.zoneUsers.find((u) => u.userId === key.userId && u.zoneCode === key.zoneCode) ?? null,
      createMapping: (key, data) => (this.zoneUsers.push({ ...key, ...data }), this.zoneUsers.at(-1)!),
      reviveMapping: (key, data) => ({ count: writeOver(this.zoneUsers, (u) => u.userId === key.userId && u.zoneCode === key.zoneCode && u.isDeleted, data) }),
      removeMapping: (key, stamp) => writeOver(live(this.zoneUsers), (u) => u.userId === key.userId && u.zoneCode === key.zoneCode, stamp),
      mapping: (key) => one(this.zoneUsers, (u) => u.userId === key.userId && u.zoneCode === key.zoneCode),
      mappingsOfUsers: (userIds) => live(this.zoneUsers).filter((u) => userIds.includes(u.userId) && u.isActive),
      zonesOfCodes: (codes) =>
        live(this.zones)
          .filter((zone) => codes.includes(zone.code))
          .sort((a, b) => a.code.localeCompare(b.code) || a.langCode.localeCompare(b.langCode)),
      byPairs: (pairs) => this.zones.filter((zone) => pairs.some(([code, langCode]) => zone.code === code && zone.langCode === langCode)),
    });
  }

  /** The devices' table as DeviceStore; searches and lists are not faked. */
  deviceStore(): DeviceStore {
    const rowsOf = (id: string) => live(this.devices).filter((row) => row.id === id);
    const byKey = (key: { id: string; langCode: string }) => (row: DeviceRow) => row.id === key.id && row.langCode === key.langCode;
    return fakeAsync<DeviceStore>({
      rowsOfId: (id) => this.devices.filter((row) => row.id === id),
      create: (key, data) => (this.devices.push({ ...key, regCenterId: null, ...data }), this.devices.at(-1)!),
      revive: (key, data) => ({ count: writeOver(this.devices, (row) => byKey(key)(row) && row.isDeleted, data) }),
      device: (key) => one(this.devices, byKey(key)),
      live: (key) => live(this.devices).find(byKey(key)) ?? null,
      rewrite: (key, shared, name) => {
        writeOver(rowsOf(key.id), () => true, shared);
        writeOver(this.devices, byKey(key), { name });
        return one(this.devices, byKey(key));
      },
      placements: (id) => rowsOf(id),
      retire: (id, stamp) => void writeOver(rowsOf(id), () => true, stamp),
      ofLanguage: (langCode, zoneCodes, specIds, take) =>
        live(this.devices)
          .filter((row) => row.langCode === langCode && zoneCodes.includes(row.zoneCode) && (!specIds || specIds.includes(row.deviceSpecId)))
          .slice(0, take),
      byPairs: (pairs, zoneCodes) =>
        this.devices.filter((row) => pairs.some(([id, langCode]) => byKey({ id, langCode })(row)) && zoneCodes.includes(row.zoneCode)),
    });
  }

  /** Zones over these tables; `users` are the ids auth knows. */
  zoneService(users: readonly string[] = []): ZoneService {
    return new ZoneService(this.zoneStore(), languages, clock(), (userId) => Promise.resolve(users.includes(userId)));
  }
}

/** A catalogue whose specifications are these ids (of type SCANNER); nothing else is faked. */
export const catalogueOf = (specIds: readonly string[]): DeviceCatalogueService =>
  new DeviceCatalogueService(
    fakeAsync<CatalogueStore>({
      specificationExists: (id) => specIds.includes(id),
      specificationIdsOfType: (type) => (type === 'SCANNER' ? [...specIds] : []),
    }),
    languages,
    clock(),
  );

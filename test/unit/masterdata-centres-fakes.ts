// In-memory stand-ins for master data's centre tables (centres, working days, centre users, machines) over the zones and devices of
// masterdata-devices-fakes.ts: the centre rules run over them with no database.
import { masterdataErrors } from '../../subgraphs/masterdata/errors.js';
import { MachineService } from '../../subgraphs/masterdata/centres/machines.js';
import { CentreReach } from '../../subgraphs/masterdata/centres/reach.js';
import { References } from '../../subgraphs/masterdata/centres/references.js';
import { CentreService } from '../../subgraphs/masterdata/centres/service.js';
import type { CentreUserRow, CentreUserStore, LockedCentreUsers } from '../../subgraphs/masterdata/centres/storage/centre-users.js';
import type { CentreRow, CentreStore, LockedCentres, WorkingDayRow } from '../../subgraphs/masterdata/centres/storage/centres.js';
import type { CentreLists } from '../../subgraphs/masterdata/centres/storage/lists.js';
import type { LockedMachines, MachineRow, MachineStore } from '../../subgraphs/masterdata/centres/storage/machines.js';
import type { Reach } from '../../subgraphs/masterdata/centres/types.js';
import { UserPlaces } from '../../subgraphs/masterdata/centres/user-places.js';
import type { DeviceService } from '../../subgraphs/masterdata/devices/service.js';
import { clock, languages, live, one, seeded, writeOver, zoneRow, zoneUserRow, ZoneTables } from './masterdata-devices-fakes.js';
import { fakeAsync } from './partner-fakes.js';

export const centreRow = (id: string, zoneCode: string, row: Partial<CentreRow> = {}): CentreRow => ({
  id,
  langCode: 'eng',
  name: `centre ${id}`,
  centerTypeCode: 'REG',
  addressLine1: null,
  addressLine2: null,
  addressLine3: null,
  latitude: null,
  longitude: null,
  locationCode: 'KTA',
  holidayLocationCode: 'KTA',
  contactPhone: null,
  contactPerson: null,
  numberOfKiosks: 1,
  workingHours: null,
  perKioskProcessTime: null,
  centerStartTime: null,
  centerEndTime: null,
  lunchStartTime: null,
  lunchEndTime: null,
  timeZone: null,
  zoneCode,
  isActive: true,
  ...seeded,
  ...row,
});

export const centreUserRow = (userId: string, regCenterId: string, row: Partial<CentreUserRow> = {}): CentreUserRow => ({
  regCenterId,
  userId,
  isActive: true,
  ...seeded,
  ...row,
});

export const machineRow = (id: string, zoneCode: string, row: Partial<MachineRow> = {}): MachineRow => ({
  id,
  langCode: 'eng',
  name: `machine-${id}`,
  serialNum: null,
  macAddress: null,
  ipAddress: null,
  machineSpecId: null,
  regCenterId: null,
  zoneCode,
  validityDateTime: null,
  isActive: true,
  ...seeded,
  ...row,
});

/** The locations that exist. */
const LOCATIONS = ['MOR', 'RSK', 'KTA'];
const keyed =
  <K extends object>(key: K) =>
  (row: object) =>
    Object.entries(key).every(([name, value]) => (row as Record<string, unknown>)[name] === value);
const nextOf = (ids: readonly string[]) => String(Math.max(10001, ...ids.filter((id) => /^\d+$/.test(id)).map((id) => Number(id) + 1)));

/** Master data's zones, devices, centres, their working days and users, and machines as arrays. */
export class CentreTables extends ZoneTables {
  centres: CentreRow[] = [];
  workingDays: WorkingDayRow[] = [];
  centreUsers: CentreUserRow[] = [];
  machines: MachineRow[] = [];

  /** A lock's work, all or nothing: a failure puts every table back as it was (the transaction rolls back). */
  private async atomically<T>(work: () => Promise<T>): Promise<T> {
    const tables = ['zones', 'zoneUsers', 'devices', 'centres', 'workingDays', 'centreUsers', 'machines'] as const;
    const before = tables.map((name) => this[name].map((row) => ({ ...row })));
    try {
      return await work();
    } catch (error) {
      tables.forEach((name, i) => (this[name] = before[i] as never));
      throw error;
    }
  }

  private zonesOfCentre = (id: string) => live(this.centres).flatMap((row) => (row.id === id ? [row.zoneCode] : []));

  private lockedCentres(): LockedCentres {
    return fakeAsync<LockedCentres>({
      nextId: () => nextOf(this.centres.map((row) => row.id)),
      zonesOf: (id) => this.zonesOfCentre(id),
      languagesOf: (id) => live(this.centres).flatMap((row) => (row.id === id ? [row.langCode] : [])),
      row: (key) => this.centres.find(keyed(key)) ?? null,
      create: (key, data) => (this.centres.push({ ...key, ...data, updatedBy: null, updatedAt: null }), this.centres.at(-1)!),
      rewrite: (key, data) => (writeOver(this.centres, keyed(key), data), one(this.centres, keyed(key))),
      updateOtherLanguages: (key, shared) => void writeOver(live(this.centres), (row) => row.id === key.id && row.langCode !== key.langCode, shared),
      workingDaysOf: (id) => this.workingDays.filter((row) => row.regCenterId === id),
      createWorkingDay: (key, data) => void this.workingDays.push({ ...key, isActive: true, updatedBy: null, updatedAt: null, ...data }),
      updateWorkingDay: (key, data) => void writeOver(this.workingDays, keyed(key), data),
      dependants: (id) => {
        const at = <T extends { regCenterId: string | null; isDeleted: boolean }>(rows: T[]) => live(rows).filter((row) => row.regCenterId === id).length;
        return { machines: at(this.machines), devices: at(this.devices), users: at(this.centreUsers) };
      },
      remove: (id, stamp) => {
        writeOver(live(this.centres), (row) => row.id === id, stamp);
        writeOver(live(this.workingDays), (row) => row.regCenterId === id, stamp);
      },
    });
  }

  centreStore(): CentreStore {
    return fakeAsync<CentreStore>({
      exists: (id) => live(this.centres).some((row) => row.id === id),
      zonesOf: (id) => this.zonesOfCentre(id),
      live: (key) => live(this.centres).find(keyed(key)) ?? null,
      ofLanguage: (langCode, take) =>
        live(this.centres)
          .filter((row) => row.langCode === langCode)
          .slice(0, take),
      workingDays: ({ id, langCode }) => live(this.workingDays).filter(keyed({ regCenterId: id, langCode })),
      workingDaysOfPairs: (pairs) => live(this.workingDays).filter((row) => pairs.some(([id, langCode]) => keyed({ regCenterId: id, langCode })(row))),
      byIds: (ids) => live(this.centres).filter((row) => ids.includes(row.id)),
      idsInZones: (zoneCodes) => [...new Set(live(this.centres).flatMap((row) => (zoneCodes.includes(row.zoneCode) ? [row.id] : [])))],
      locked: (work) => this.atomically(() => work(this.lockedCentres())),
    });
  }

  private lockedUsers(): LockedCentreUsers {
    return fakeAsync<LockedCentreUsers>({
      zonesOfCentre: (id) => this.zonesOfCentre(id),
      mappingsOf: (userId) => this.centreUsers.filter((row) => row.userId === userId),
      create: (key, data) => (this.centreUsers.push({ ...key, isActive: true, updatedBy: null, updatedAt: null, ...data }), this.centreUsers.at(-1)!),
      rewrite: (key, data) => (writeOver(this.centreUsers, keyed(key), data), one(this.centreUsers, keyed(key))),
      remove: (key, stamp) => writeOver(live(this.centreUsers), keyed(key), stamp),
      mapping: (key) => one(this.centreUsers, keyed(key)),
    });
  }

  centreUserStore(): CentreUserStore {
    return fakeAsync<CentreUserStore>({
      usersOf: (regCenterId) => live(this.centreUsers).flatMap((row) => (row.regCenterId === regCenterId ? [row.userId] : [])),
      placedIn: (zoneCodes, centreIds) => {
        const centres = new Set([...centreIds, ...live(this.centres).flatMap((row) => (zoneCodes.includes(row.zoneCode) ? [row.id] : []))]);
        return new Set([
          ...live(this.zoneUsers).flatMap((row) => (row.isActive && zoneCodes.includes(row.zoneCode) ? [row.userId] : [])),
          ...live(this.centreUsers).flatMap((row) => (centres.has(row.regCenterId) ? [row.userId] : [])),
        ]);
      },
      centresOfUsers: (userIds) =>
        live(this.centreUsers)
          .filter((row) => userIds.includes(row.userId))
          .sort((a, b) => a.userId.localeCompare(b.userId) || a.regCenterId.localeCompare(b.regCenterId)),
      mapping: (key) => this.centreUsers.find(keyed(key)) ?? null,
      worksAt: (userId) => live(this.centreUsers).flatMap((row) => (row.userId === userId && row.isActive ? [row.regCenterId] : [])),
      countsAt: (ids) => new Map(ids.map((id) => [id, live(this.centreUsers).filter((row) => row.regCenterId === id).length])),
      locked: (_userId, work) => this.atomically(() => work(this.lockedUsers())),
    });
  }

  private lockedMachines(): LockedMachines {
    const rowsOf = (id: string) => live(this.machines).filter((row) => row.id === id);
    return fakeAsync<LockedMachines>({
      nextId: () => nextOf(this.machines.map((row) => row.id)),
      placementsOf: (id) => rowsOf(id),
      centreZones: (ids) => [...new Set(ids.flatMap((id) => this.zonesOfCentre(id)))],
      nameTaken: (name, exceptId) => live(this.machines).some((row) => row.name === name && row.id !== exceptId),
      row: (key) => this.machines.find(keyed(key)) ?? null,
      create: (key, data) => (this.machines.push({ ...key, updatedBy: null, updatedAt: null, ...data }), this.machines.at(-1)!),
      rewrite: (key, data) => (writeOver(this.machines, keyed(key), data), one(this.machines, keyed(key))),
      updateOtherLanguages: (key, data) => void writeOver(rowsOf(key.id), (row) => row.langCode !== key.langCode, data),
      updateAll: (id, data) => writeOver(rowsOf(id), () => true, data),
      machine: (key) => one(this.machines, keyed(key)),
      remove: (id, stamp) => void writeOver(rowsOf(id), () => true, stamp),
    });
  }

  machineStore(): MachineStore {
    const inReach = (reach: Reach) => (row: MachineRow) =>
      (reach.admin && reach.zoneCodes.has(row.zoneCode)) || (row.regCenterId !== null && reach.centreIds.has(row.regCenterId));
    return fakeAsync<MachineStore>({
      live: (key) => live(this.machines).find(keyed(key)) ?? null,
      placement: (centreId, machineId) => ({
        centres: live(this.centres).filter((row) => row.id === centreId),
        machines: live(this.machines).filter((row) => row.id === machineId),
      }),
      ofLanguage: (reach, langCode, take) =>
        live(this.machines)
          .filter((row) => row.langCode === langCode && inReach(reach)(row))
          .slice(0, take),
      byPairs: (pairs) => live(this.machines).filter((row) => pairs.some(([id, langCode]) => keyed({ id, langCode })(row))),
      namesInReach: (reach) => [
        ...new Set(
          live(this.machines)
            .filter(inReach(reach))
            .map((row) => row.name),
        ),
      ],
      placementsNamed: (name) => live(this.machines).filter((row) => row.name === name),
      locked: (work) => this.atomically(() => work(this.lockedMachines())),
    });
  }

  /** The centres area's services over these tables; `users` are the ids auth knows. */
  services(users: readonly string[] = []) {
    const zones = this.zoneService(users);
    const locations = { mustExist: (code: string) => (LOCATIONS.includes(code) ? Promise.resolve() : Promise.reject(masterdataErrors.locationNotFound(code))) };
    const references = new References(languages, this.centreStore(), locations, zones);
    const reach = new CentreReach(this.centreStore(), this.centreUserStore(), zones);
    const userExists = (userId: string) => Promise.resolve(users.includes(userId));
    const noLists = fakeAsync<CentreLists>({});
    const noDevices = fakeAsync<Pick<DeviceService, 'atCentres'>>({});
    return {
      zones,
      reach,
      centres: new CentreService(this.centreStore(), this.centreUserStore(), clock(), references, userExists, zones, noLists, noDevices),
      machines: new MachineService(this.machineStore(), clock(), references, zones, reach),
      places: new UserPlaces(this.centreUserStore(), zones, reach),
    };
  }
}

/**
 * A small country: MOR with RSK (and KTA below it) and NTH below it, and
 * MORX beside it (its code starts as MOR's does, and lies outside it); RSK in
 * Arabic too. `global` administers MOR, `zonal` RSK, `north` NTH; `gone`'s
 * mapping to RSK is deleted, `paused`'s inactive. Centre 10001 lies in KTA
 * (English and Arabic), 10002 in NTH, 10003 in MORX; `officer` works at
 * 10001, `officer2` at 10002. Machine 20001 is at 10001, 20002 in RSK at no
 * centre, 20003 in KTA but at 10002 (NTH), 20004 at 10003.
 */
export function country(): CentreTables {
  const tables = new CentreTables();
  tables.zones = [
    zoneRow('MOR'),
    zoneRow('MOR/RSK'),
    zoneRow('MOR/RSK', { langCode: 'ara', name: 'الرباط' }),
    zoneRow('MOR/RSK/KTA'),
    zoneRow('MOR/NTH'),
    zoneRow('MORX'),
  ];
  tables.zoneUsers = [
    zoneUserRow('global', 'MOR'),
    zoneUserRow('zonal', 'RSK'),
    zoneUserRow('north', 'NTH'),
    zoneUserRow('gone', 'RSK', { isDeleted: true, isActive: false }),
    zoneUserRow('paused', 'RSK', { isActive: false }),
  ];
  tables.centres = [centreRow('10001', 'KTA'), centreRow('10001', 'KTA', { langCode: 'ara' }), centreRow('10002', 'NTH'), centreRow('10003', 'MORX')];
  tables.centreUsers = [centreUserRow('officer', '10001'), centreUserRow('officer2', '10002')];
  tables.machines = [
    machineRow('20001', 'KTA', { regCenterId: '10001' }),
    machineRow('20002', 'RSK'),
    machineRow('20003', 'KTA', { regCenterId: '10002' }),
    machineRow('20004', 'MORX', { regCenterId: '10003' }),
  ];
  return tables;
}

export const GLOBAL_ADMIN = { subject: 'global', roles: ['GLOBAL_ADMIN'] };
export const ZONAL_ADMIN = { subject: 'zonal', roles: ['ZONAL_ADMIN'] };
export const NORTH_ADMIN = { subject: 'north', roles: ['ZONAL_ADMIN'] };
export const OFFICER = { subject: 'officer', roles: ['REGISTRATION_OFFICER'] };
export const RESIDENT = { subject: 'resident', roles: ['RESIDENT'] };

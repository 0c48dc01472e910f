// In-memory stand-ins for what sync data reads of other components (master data's rows and places, the caller's reach, the key
// manager's machine keys, auth's users): sync data's rules run over them with no database.
import type { KeyObject } from 'node:crypto';
import { ManualClock } from '../../lib/time.js';
import type { UserRow } from '../../subgraphs/auth/storage/users.js';
import type { UserInput, UsersService } from '../../subgraphs/auth/users-service.js';
import type { Reach } from '../../subgraphs/masterdata/centres/types.js';
import { ClientPlaces, MasterdataChanges, type ChangeEntity, type ChangePlace } from '../../subgraphs/masterdata/changes/service.js';
import type { CentreRow, ChangesStore, ChangeWindow, ClientPlaceStore, MachineRow } from '../../subgraphs/masterdata/changes/storage.js';
import type { CentreUserRow } from '../../subgraphs/masterdata/centres/storage/centre-users.js';
import type { SyncPorts } from '../../subgraphs/syncdata/ports.js';
import { SyncDataService } from '../../subgraphs/syncdata/service.js';
import { NOW } from './masterdata-devices-fakes.js';
import { fakeAsync } from './partner-fakes.js';

export { NOW };
export { centreRow, centreUserRow, machineRow } from './masterdata-centres-fakes.js';

/** A master data row as the changes read filters it: its audit columns and whatever else. */
export type SyncRow = { changedAt: Date; isDeleted: boolean } & Record<string, unknown>;

export const userRow = (userId: string, roles: string[], row: Partial<UserRow> = {}): UserRow => ({
  id: `id-${userId}`,
  userId,
  name: userId,
  mail: `${userId}@example.org`,
  mobile: null,
  langCode: 'eng',
  passwordHash: `scrypt$hash-of-${userId}`,
  passwordChangedAt: NOW,
  roles,
  appIds: ['registrationclient'],
  rid: null,
  isLocked: false,
  createdAt: NOW,
  updatedAt: NOW,
  ...row,
});

const byLanguage = <T extends { langCode: string }>(rows: T[]) => [...rows].sort((a, b) => a.langCode.localeCompare(b.langCode));

/** The tables behind sync data's ports, as arrays, and what each port was asked. */
export class SyncWorld {
  readonly clock = new ManualClock(NOW);
  /** the key manager's machine keys, by key index */
  readonly keys = new Map<string, { machineName: string; publicKey: string }>();
  machines: MachineRow[] = [];
  centres: CentreRow[] = [];
  staff: CentreUserRow[] = [];
  users: UserRow[] = [];
  /** what each caller (by subject) reaches; none when absent */
  readonly reaches = new Map<string, Reach>();
  /** master data's rows by entity */
  rows: Partial<Record<ChangeEntity, SyncRow[]>> = {};
  /** each entity read: the window master data's store got, and the place */
  readonly asked: { entity: ChangeEntity; window: ChangeWindow; place: ChangePlace }[] = [];
  /** every take activeStaff was asked with */
  readonly staffTakes: number[] = [];
  readonly created: (UserInput & { userId: string })[] = [];
  /** how many times a port was asked, by name */
  readonly calls: string[] = [];

  /** Maps a machine's key (base64 SPKI DER) under a key index. */
  mapKey(keyIndex: string, machineName: string, publicKey: KeyObject): void {
    this.keys.set(keyIndex, { machineName, publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64') });
  }

  reaching(subject: string, reach: Partial<Reach>): void {
    this.reaches.set(subject, { admin: false, zoneCodes: new Set(), centreIds: new Set(), ...reach });
  }

  private changesStore(): ChangesStore {
    return fakeAsync<ChangesStore>({
      rows: (entity, window, place) => {
        this.asked.push({ entity, window, place });
        return (this.rows[entity] ?? []).filter((row) => (window ? row.changedAt > window.since && row.changedAt <= window.until : !row.isDeleted));
      },
    });
  }

  private placeStore(): ClientPlaceStore {
    return fakeAsync<ClientPlaceStore>({
      machinesNamed: (name) => byLanguage(this.machines.filter((row) => row.name === name && !row.isDeleted)),
      centre: (id) => {
        this.calls.push('centre');
        return byLanguage(this.centres.filter((row) => row.id === id && !row.isDeleted))[0] ?? null;
      },
      activeStaff: (regCenterId, take) => {
        this.staffTakes.push(take);
        return this.staff
          .filter((row) => row.regCenterId === regCenterId && row.isActive && !row.isDeleted)
          .map((row) => row.userId)
          .sort()
          .slice(0, take);
      },
    });
  }

  ports(): SyncPorts {
    const users = fakeAsync<Pick<UsersService, 'usersById' | 'createUser'>>({
      usersById: (ids) => new Map(this.users.filter((user) => ids.includes(user.userId)).map((user) => [user.userId, user])),
      createUser: (input) => {
        this.created.push(input);
        const row = userRow(input.userId, input.roles ?? [], { name: input.name ?? null, passwordHash: null, appIds: input.appIds ?? [] });
        this.users.push(row);
        return row;
      },
    });
    return {
      clock: this.clock,
      changes: new MasterdataChanges(this.changesStore()),
      places: new ClientPlaces(this.placeStore(), {
        exists: (id) => {
          this.calls.push('centreExists');
          return Promise.resolve(this.centres.some((row) => row.id === id && !row.isDeleted));
        },
      }),
      reach: {
        of: (caller) => {
          this.calls.push('reach');
          return Promise.resolve(this.reaches.get(caller.subject) ?? { admin: false, zoneCodes: new Set(), centreIds: new Set() });
        },
      },
      machineKeys: {
        machineKeyByIndex: (keyIndex) => {
          this.calls.push('machineKey');
          return Promise.resolve(this.keys.get(keyIndex) ?? null);
        },
      },
      users,
    };
  }

  service(): SyncDataService {
    return new SyncDataService({ registrationConfiguration: { a: '1' }, globalConfiguration: { b: '2' } }, this.ports());
  }
}

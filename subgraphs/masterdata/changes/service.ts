import type { CentreStore } from '../centres/storage/centres.js';
import {
  CHANGE_ENTITIES,
  type CentreRow,
  type ChangeEntity,
  type ChangePlace,
  type ChangesStore,
  type ChangeWindow,
  type ClientPlaceStore,
  type MachineRow,
} from './storage.js';

export { CHANGE_ENTITIES };
export type { CentreRow, ChangeEntity, ChangePlace, ChangeWindow, MachineRow };

/**
 * Master data as another component keeps a copy of it: one entity's rows,
 * all the live ones for a first copy, then every row changed since the last
 * one. Sync data sends them to registration clients (client settings);
 * pre-registration reads its copy of centres, holidays and documents here
 * too. No other component queries master data's tables.
 */
export class MasterdataChanges {
  /** the entities answered, in the order sync data sends them */
  readonly entities: readonly ChangeEntity[] = CHANGE_ENTITIES;

  constructor(private readonly store: ChangesStore) {}

  /**
   * An entity's rows for a place: every live row when `since` is null (a
   * full copy; `until` is not applied), else every row changed in
   * (since, until], deleted ones included so the copy drops them. Each in
   * the entity's own order.
   */
  changedSince(entity: ChangeEntity, since: Date | null, until: Date, place: ChangePlace): Promise<object[]> {
    const window: ChangeWindow = since ? { since, until } : null;
    return this.store.rows(entity, window, place);
  }
}

/** A machine by its name, as a registration client knows it. */
export interface NamedMachine {
  /** whether a live machine has the name (in some language) */
  known: boolean;
  /** its first active live row (by language), null when none is active */
  machine: MachineRow | null;
  /** the live centre that row is placed at (its first language), null when it is at none or the centre is deleted */
  centre: CentreRow | null;
}

/**
 * Where a registration client stands: its machine and that machine's centre,
 * whether a centre exists, who works there. Read by sync data for its
 * clients' settings and offline logins; no caller scope here (sync data
 * checks the caller's reach with centreReach).
 */
export class ClientPlaces {
  constructor(
    private readonly store: ClientPlaceStore,
    private readonly centres: Pick<CentreStore, 'exists'>,
  ) {}

  /** The machine of a name, its first active row and that row's centre (no centre read when none is active or placed). */
  machineNamed(name: string): Promise<NamedMachine> {
    return this.placeOf(this.store.machinesNamed(name));
  }

  /** The same, of a machine by its id (pre-registration's sync names the machine by id). */
  machineWithId(id: string): Promise<NamedMachine> {
    return this.placeOf(this.store.machinesWithId(id));
  }

  private async placeOf(found: Promise<MachineRow[]>): Promise<NamedMachine> {
    const rows = await found;
    const machine = rows.find((row) => row.isActive) ?? null;
    const centre = machine?.regCenterId ? await this.store.centre(machine.regCenterId) : null;
    return { known: rows.length > 0, machine, centre };
  }

  /** Whether a live centre has the id (in any language). */
  centreExists(id: string): Promise<boolean> {
    return this.centres.exists(id);
  }

  /** The users actively mapped to a centre, by user id, at most `take`. */
  activeStaff(regCenterId: string, take: number): Promise<string[]> {
    return this.store.activeStaff(regCenterId, take);
  }
}

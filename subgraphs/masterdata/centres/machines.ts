import type { Connection, PageArgs } from '../../../lib/graph/connection.js';
import type { Clock } from '../../../lib/time.js';
import { created, deleted, updated } from '../audit.js';
import type { ZoneGuard, ZoneService } from '../devices/zones.js';
import { masterdataErrors } from '../errors.js';
import { pairKey, parsePair } from '../keys.js';
import { wholeList } from '../paged.js';
import { machineValidity } from './inputs.js';
import { CentreReach, type Caller, type PlacedMachine, type Reach } from './reach.js';
import type { References } from './references.js';
import type { LockedMachines, MachineFields, MachineFilter, MachineRow, MachineStore } from './storage/machines.js';

export type { MachineFilter, MachineRow };
// A wire parser: it lives with the area's inputs (REST runs it too).
export { machineValidity };

/** Where a centre and machine stand for a registration client's calls: ACTIVE, or why not. */
export type MachinePlacement = 'ACTIVE' | 'UNKNOWN_CENTRE' | 'INACTIVE_CENTRE' | 'UNKNOWN_MACHINE' | 'INACTIVE_MACHINE' | 'ELSEWHERE';

export interface MachineInput {
  id?: string | null;
  langCode: string;
  name: string;
  serialNum?: string | null;
  macAddress?: string | null;
  ipAddress?: string | null;
  machineSpecId?: string | null;
  regCenterId?: string | null;
  zoneCode: string;
  validityDateTime?: string | null;
  isActive?: boolean | null;
}

/** What KER-MSD-439 and the staff's refusal name. */
const MACHINE = 'machine';

/**
 * The zones a machine's rows lie in: its own, and its centre's. An admin
 * writes a machine only when both are its own, before and after the write:
 * placing a machine at another zone's centre, or taking one from it, is
 * writing that centre. Read with the write's transaction.
 */
async function zonesOf(inLock: LockedMachines, machines: readonly PlacedMachine[]): Promise<string[]> {
  const centreIds = [...new Set(machines.flatMap((machine) => (machine.regCenterId ? [machine.regCenterId] : [])))];
  return [...machines.map((machine) => machine.zoneCode), ...(await inLock.centreZones(centreIds))];
}

/**
 * Registration client machines, one row per language; every field but the
 * language is shared by the rows of a machine. The name is unique among
 * machines (keys maps a machine's TPM key by it), checked under a lock.
 * Every caller acts in its own scope: an admin writes and reads the machines
 * of its zones (KER-MSD-439), registration staff read those of the centre
 * they work at (KER-ATH-403).
 */
export class MachineService {
  constructor(
    private readonly store: MachineStore,
    private readonly clock: Clock,
    private readonly references: References,
    private readonly zones: Pick<ZoneService, 'guardOf'>,
    private readonly reach: Pick<CentreReach, 'of'>,
  ) {}

  /** The shared fields, once what they point to is checked. */
  private async fields(input: MachineInput): Promise<MachineFields> {
    const validity = input.validityDateTime ? machineValidity(input.validityDateTime) : null;
    await this.references.language(input.langCode);
    if (!(await this.references.zoneExists(input.zoneCode))) throw masterdataErrors.machineZoneNotFound(input.zoneCode);
    if (input.regCenterId && !(await this.references.centreExists(input.regCenterId))) throw masterdataErrors.centreNotFound(input.regCenterId);
    return {
      name: input.name,
      serialNum: input.serialNum ?? null,
      macAddress: input.macAddress ?? null,
      ipAddress: input.ipAddress ?? null,
      machineSpecId: input.machineSpecId ?? null,
      regCenterId: input.regCenterId ?? null,
      zoneCode: input.zoneCode,
      validityDateTime: validity,
      isActive: input.isActive ?? true,
    };
  }

  /**
   * Writes one machine's rows under the machine lock: `write` gets the id,
   * once the machine as it is (every live row) and as it will be lie in the
   * caller's zones, and the name is checked free.
   */
  private locked(
    guard: ZoneGuard,
    input: MachineInput,
    fields: PlacedMachine,
    write: (inLock: LockedMachines, id: string) => Promise<MachineRow>,
  ): Promise<MachineRow> {
    return this.store.locked(
      async (inLock) => {
        const id = input.id ?? (await inLock.nextId());
        const current = await inLock.placementsOf(id);
        guard.require(MACHINE, ...(await zonesOf(inLock, [fields, ...current])));
        if (await inLock.nameTaken(input.name, id)) throw masterdataErrors.machineNameExists(input.name);
        return write(inLock, id);
      },
      () => masterdataErrors.machineExists(input.id ?? '', input.langCode),
    );
  }

  /** A new machine, or a machine's row in another language (a soft-deleted row comes back). */
  async create(by: string, input: MachineInput): Promise<MachineRow> {
    const fields = await this.fields(input);
    const guard = await this.zones.guardOf(by);
    const now = this.clock.now();
    return this.locked(guard, input, fields, async (inLock, id) => {
      const key = { id, langCode: input.langCode };
      const existing = await inLock.row(key);
      if (existing && !existing.isDeleted) throw masterdataErrors.machineExists(id, input.langCode);
      const row = existing
        ? await inLock.rewrite(key, { ...fields, ...created(by, now), updatedBy: null, updatedAt: null })
        : await inLock.create(key, { ...fields, ...created(by, now) });
      await inLock.updateOtherLanguages(key, { ...fields, ...updated(by, now) });
      return row;
    });
  }

  async update(by: string, input: MachineInput & { id: string }): Promise<MachineRow> {
    await this.find(input.id, input.langCode);
    const fields = await this.fields(input);
    const guard = await this.zones.guardOf(by);
    const now = this.clock.now();
    return this.locked(guard, input, fields, async (inLock, id) => {
      if (!(await inLock.updateAll(id, { ...fields, ...updated(by, now) }))) throw masterdataErrors.machineNotFound(id);
      return inLock.machine({ id, langCode: input.langCode });
    });
  }

  async delete(by: string, id: string): Promise<string> {
    const guard = await this.zones.guardOf(by);
    return this.store.locked(async (inLock) => {
      const rows = await inLock.placementsOf(id);
      if (!rows.length) throw masterdataErrors.machineNotFound(id);
      guard.require(MACHINE, ...(await zonesOf(inLock, rows)));
      await inLock.remove(id, deleted(by, this.clock.now()));
      return id;
    });
  }

  /** A live machine row, whoever asks (the writes check the zones themselves). */
  private async find(id: string, langCode: string): Promise<MachineRow> {
    const row = await this.store.live({ id, langCode });
    if (!row) throw masterdataErrors.machineNotFound(id);
    return row;
  }

  /**
   * Whether a registration client may send from this centre and machine (the
   * registration processor's sync): both known and active (in some language),
   * the machine placed at that centre. No caller scope here: the caller names
   * its own centre, which the processor checks against the caller's reach.
   */
  async placement(centreId: string, machineId: string): Promise<MachinePlacement> {
    const { centres, machines } = await this.store.placement(centreId, machineId);
    if (!centres.length) return 'UNKNOWN_CENTRE';
    if (!centres.some((row) => row.isActive)) return 'INACTIVE_CENTRE';
    if (!machines.length) return 'UNKNOWN_MACHINE';
    if (!machines.some((row) => row.isActive)) return 'INACTIVE_MACHINE';
    return machines.some((row) => row.isActive && row.regCenterId === centreId) ? 'ACTIVE' : 'ELSEWHERE';
  }

  /** A machine the caller reaches. */
  async get(reach: Reach, id: string, langCode: string): Promise<MachineRow> {
    const row = await this.find(id, langCode);
    if (!CentreReach.reachesMachine(reach, row)) throw CentreReach.refusal(reach, `${MACHINE} ${id}`);
    return row;
  }

  /** The machines of a language the caller reaches, whole (at most LIST_LIMIT: refused beyond). */
  ofLanguage(reach: Reach, langCode: string): Promise<MachineRow[]> {
    return wholeList('machines', 'machines', (take) => this.store.ofLanguage(reach, langCode, take));
  }

  /** The machines the caller reaches; asking for a centre it does not reach is refused, not answered with nothing. */
  async list(reach: Reach, page: PageArgs, filter?: MachineFilter | null): Promise<Connection<MachineRow>> {
    const centre = filter?.regCenterId;
    if (centre && !CentreReach.reachesCentre(reach, centre) && (await this.references.centreExists(centre))) {
      throw CentreReach.refusal(reach, `registration centre ${centre}`);
    }
    return this.store.page(reach, page, filter);
  }

  /** Machines by "id langCode" keys (entity references), in one query; those the caller does not reach come back as absent. */
  async byKeys(reach: Reach, keys: readonly string[]): Promise<Map<string, MachineRow>> {
    const rows = await this.store.byPairs(keys.map(parsePair));
    return new Map(rows.filter((row) => CentreReach.reachesMachine(reach, row)).map((row) => [pairKey(row.id, row.langCode), row]));
  }

  /**
   * The names of the machines a caller reaches, for the key store's list of
   * their public keys: a centre's staff their centre's, an admin its zones'.
   * Null for a GLOBAL_ADMIN: every key, machines master data no longer holds too.
   */
  async namesInReach(caller: Caller): Promise<string[] | null> {
    if (caller.roles.includes('GLOBAL_ADMIN')) return null;
    return this.store.namesInReach(await this.reach.of(caller));
  }

  /**
   * Whether a caller may map a TPM key to a machine (keys asks before it maps
   * one, POST /v1/syncdata/tpm/publickey): registration staff only a machine
   * of the centre they work at, an admin one of its zones; a name no machine
   * has yet only a GLOBAL_ADMIN (else a key mapped ahead would be waiting for
   * whichever machine takes the name). KER-ATH-403 otherwise.
   */
  async requireMappable(caller: Caller, machineName: string): Promise<void> {
    const rows = await this.store.placementsNamed(machineName);
    if (!rows.length && caller.roles.includes('GLOBAL_ADMIN')) return;
    const reach = await this.reach.of(caller);
    if (!rows.length || !rows.every((row) => CentreReach.reachesMachine(reach, row))) throw masterdataErrors.notYourCentre(`${MACHINE} ${machineName}`);
  }
}

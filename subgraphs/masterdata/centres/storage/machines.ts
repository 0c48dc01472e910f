import type { Machine, Prisma, PrismaClient } from '../../../../generated/prisma/client.js';
import type { Tx } from '../../../../lib/db/lock.js';
import { connection, type Connection, type PageArgs } from '../../../../lib/graph/connection.js';
import { LIVE, type Deleted, type Updated } from '../../audit.js';
import { cursorAt, pairKey } from '../../keys.js';
import { likeLiteral } from '../../search.js';
import type { PlacedMachine, Reach } from '../types.js';
import { lockedWork, nextId } from './locks.js';

export type MachineRow = Machine;
export type MachineKey = Pick<MachineRow, 'id' | 'langCode'>;
/** What every language of a machine shares: every column but the key and the audit's. */
export type MachineFields = Pick<
  MachineRow,
  'name' | 'serialNum' | 'macAddress' | 'ipAddress' | 'machineSpecId' | 'regCenterId' | 'zoneCode' | 'validityDateTime' | 'isActive'
>;
type Stamps = Pick<MachineRow, 'createdBy' | 'createdAt' | 'updatedBy' | 'updatedAt' | 'isDeleted' | 'deletedAt' | 'changedAt'>;

export interface MachineFilter {
  langCode?: string | null;
  zoneCode?: string | null;
  regCenterId?: string | null;
  name?: string | null;
  isActive?: boolean | null;
}

/** What the machine writes read and write inside one transaction, under the machines' lock. */
export interface LockedMachines {
  /** the next generated machine id */
  nextId(): Promise<string>;
  /** where each live language of a machine lies */
  placementsOf(id: string): Promise<PlacedMachine[]>;
  /** the distinct zones of these live centres (none for no centre) */
  centreZones(centreIds: readonly string[]): Promise<string[]>;
  /** whether another live machine has the name */
  nameTaken(name: string, exceptId: string): Promise<boolean>;
  /** the key's row, deleted or not */
  row(key: MachineKey): Promise<MachineRow | null>;
  create(key: MachineKey, data: MachineFields & Omit<Stamps, 'updatedBy' | 'updatedAt'>): Promise<MachineRow>;
  /** writes over the key's row (live or deleted) */
  rewrite(key: MachineKey, data: MachineFields & Stamps): Promise<MachineRow>;
  /** writes the shared fields over the machine's other live languages */
  updateOtherLanguages(key: MachineKey, data: MachineFields & Updated): Promise<void>;
  /** writes the shared fields over every live language; how many rows it wrote */
  updateAll(id: string, data: MachineFields & Updated): Promise<number>;
  /** the key's row, deleted or not */
  machine(key: MachineKey): Promise<MachineRow>;
  /** soft-deletes every language of a machine */
  remove(id: string, stamp: Deleted): Promise<void>;
}

/** The machines' table (and the centres it points to) as the machine rules see them. Every read is of live rows unless it says otherwise. */
export interface MachineStore {
  live(key: MachineKey): Promise<MachineRow | null>;
  /** the state of every language of a centre and of a machine: whether each is active, and where the machine is placed */
  placement(centreId: string, machineId: string): Promise<{ centres: { isActive: boolean }[]; machines: Pick<MachineRow, 'isActive' | 'regCenterId'>[] }>;
  /** the machines of a language a reach covers, by id, at most `take` */
  ofLanguage(reach: Reach, langCode: string, take: number): Promise<MachineRow[]>;
  /** a page of the machines a reach covers, by id and language */
  page(reach: Reach, page: PageArgs, filter?: MachineFilter | null): Promise<Connection<MachineRow>>;
  byPairs(pairs: readonly [string, string][]): Promise<MachineRow[]>;
  /** the distinct names of the machines a reach covers */
  namesInReach(reach: Reach): Promise<string[]>;
  /** where the machines of a name lie */
  placementsNamed(name: string): Promise<PlacedMachine[]>;
  /** `work` in one transaction under the machines' lock; a racing writer's unique key is `taken()` when given */
  locked<T>(work: (tx: LockedMachines) => Promise<T>, taken?: () => Error): Promise<T>;
}

/** Prisma's condition on Machine for the machines a reach covers: those of its zones (an admin's), and those at its centres. */
const machineWhere = (reach: Reach): Prisma.MachineWhereInput => ({
  OR: [{ zoneCode: { in: reach.admin ? [...reach.zoneCodes] : [] } }, { regCenterId: { in: [...reach.centreIds] } }],
});

const PLACED = { zoneCode: true, regCenterId: true } as const;

function lockedMachines(tx: Tx): LockedMachines {
  return {
    nextId: () => nextId(tx, 'machine'),
    placementsOf: (id) => tx.machine.findMany({ where: { id, ...LIVE }, select: PLACED }),
    centreZones: async (centreIds) =>
      centreIds.length
        ? (await tx.registrationCenter.findMany({ where: { id: { in: [...centreIds] }, ...LIVE }, select: { zoneCode: true }, distinct: ['zoneCode'] })).map(
            (row) => row.zoneCode,
          )
        : [],
    nameTaken: async (name, exceptId) => (await tx.machine.findFirst({ where: { name, id: { not: exceptId }, ...LIVE }, select: { id: true } })) !== null,
    row: (key) => tx.machine.findUnique({ where: { id_langCode: key } }),
    create: (key, data) => tx.machine.create({ data: { ...key, ...data } }),
    rewrite: (key, data) => tx.machine.update({ where: { id_langCode: key }, data }),
    updateOtherLanguages: async ({ id, langCode }, data) => {
      await tx.machine.updateMany({ where: { id, langCode: { not: langCode }, ...LIVE }, data });
    },
    updateAll: async (id, data) => (await tx.machine.updateMany({ where: { id, ...LIVE }, data })).count,
    machine: (key) => tx.machine.findUniqueOrThrow({ where: { id_langCode: key } }),
    remove: async (id, stamp) => {
      await tx.machine.updateMany({ where: { id, ...LIVE }, data: stamp });
    },
  };
}

/** The machines' table (md_machine): the only code that touches it. */
export class MachineStorage implements MachineStore {
  constructor(private readonly prisma: PrismaClient) {}

  live(key: MachineKey): Promise<MachineRow | null> {
    return this.prisma.machine.findFirst({ where: { ...key, ...LIVE } });
  }

  async placement(centreId: string, machineId: string) {
    const [centres, machines] = await Promise.all([
      this.prisma.registrationCenter.findMany({ where: { id: centreId, ...LIVE }, select: { isActive: true } }),
      this.prisma.machine.findMany({ where: { id: machineId, ...LIVE }, select: { isActive: true, regCenterId: true } }),
    ]);
    return { centres, machines };
  }

  ofLanguage(reach: Reach, langCode: string, take: number): Promise<MachineRow[]> {
    return this.prisma.machine.findMany({ where: { AND: [{ langCode, ...LIVE }, machineWhere(reach)] }, orderBy: { id: 'asc' }, take });
  }

  page(reach: Reach, page: PageArgs, filter?: MachineFilter | null): Promise<Connection<MachineRow>> {
    const where: Prisma.MachineWhereInput = {
      AND: [
        LIVE,
        machineWhere(reach),
        filter?.langCode ? { langCode: filter.langCode } : {},
        filter?.zoneCode ? { zoneCode: filter.zoneCode } : {},
        filter?.regCenterId ? { regCenterId: filter.regCenterId } : {},
        filter?.name ? { name: { contains: likeLiteral(filter.name), mode: 'insensitive' } } : {},
        filter?.isActive != null ? { isActive: filter.isActive } : {},
      ],
    };
    return connection(
      page,
      (row) => pairKey(row.id, row.langCode),
      (query) =>
        this.prisma.machine.findMany({
          where,
          orderBy: [{ id: 'asc' }, { langCode: 'asc' }],
          ...cursorAt(query, ([id, langCode]) => ({ id_langCode: { id, langCode } })),
        }),
      () => this.prisma.machine.count({ where }),
    );
  }

  byPairs(pairs: readonly [string, string][]): Promise<MachineRow[]> {
    return this.prisma.machine.findMany({ where: { OR: pairs.map(([id, langCode]) => ({ id, langCode })), ...LIVE } });
  }

  async namesInReach(reach: Reach): Promise<string[]> {
    const rows = await this.prisma.machine.findMany({ where: { ...machineWhere(reach), ...LIVE }, select: { name: true }, distinct: ['name'] });
    return rows.map((row) => row.name);
  }

  placementsNamed(name: string): Promise<PlacedMachine[]> {
    return this.prisma.machine.findMany({ where: { name, ...LIVE }, select: PLACED });
  }

  locked<T>(work: (tx: LockedMachines) => Promise<T>, taken?: () => Error): Promise<T> {
    return lockedWork(this.prisma, 'md_machine', lockedMachines, work, taken);
  }
}

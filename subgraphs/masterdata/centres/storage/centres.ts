import type { Prisma, PrismaClient, RegistrationCenter, RegistrationCenterWorkingDay } from '../../../../generated/prisma/client.js';
import type { Tx } from '../../../../lib/db/lock.js';
import { connection, type Connection, type PageArgs } from '../../../../lib/graph/connection.js';
import { LIVE, type Created, type Deleted, type Updated } from '../../audit.js';
import { devicesPlacedAt } from '../../devices/storage/devices.js';
import { cursorAt, pairKey } from '../../keys.js';
import { likeLiteral } from '../../search.js';
import { lockedWork, nextId } from './locks.js';

export type CentreRow = RegistrationCenter;
export type WorkingDayRow = RegistrationCenterWorkingDay;
export type CentreKey = Pick<CentreRow, 'id' | 'langCode'>;
/** A centre's columns apart from its key. */
export type CentreData = Omit<CentreRow, keyof CentreKey>;
/** What a new centre's row is written with: every column but its key and the update's. */
export type NewCentre = Omit<CentreData, 'updatedBy' | 'updatedAt'>;
/** The columns every language of a centre shares, with who changed them when. */
export type CentreShared = Omit<CentreData, 'name' | 'addressLine1' | 'addressLine2' | 'addressLine3' | 'contactPerson' | keyof CentreStamps>;
type CentreStamps = Pick<CentreRow, 'createdBy' | 'createdAt' | 'updatedBy' | 'updatedAt' | 'isDeleted' | 'deletedAt' | 'changedAt'>;
export type WorkingDayKey = Pick<WorkingDayRow, 'regCenterId' | 'dayCode' | 'langCode'>;

export interface CentreFilter {
  langCode?: string | null;
  zoneCode?: string | null;
  locationCode?: string | null;
  centerTypeCode?: string | null;
  name?: string | null;
  isActive?: boolean | null;
}

/** What the centre writes read and write inside one transaction, under the centres' lock. */
export interface LockedCentres {
  /** the next generated centre id */
  nextId(): Promise<string>;
  /** the zones a centre lies in now (every live language) */
  zonesOf(id: string): Promise<string[]>;
  /** the live languages of a centre */
  languagesOf(id: string): Promise<string[]>;
  /** the key's row, deleted or not */
  row(key: CentreKey): Promise<CentreRow | null>;
  create(key: CentreKey, data: NewCentre): Promise<CentreRow>;
  /** writes over the key's row (live or deleted) */
  rewrite(key: CentreKey, data: Partial<CentreData>): Promise<CentreRow>;
  /** writes the shared columns over the centre's other live languages */
  updateOtherLanguages(key: CentreKey, shared: CentreShared & Updated): Promise<void>;
  /** every working day row of a centre, deleted ones too */
  workingDaysOf(id: string): Promise<WorkingDayRow[]>;
  createWorkingDay(key: WorkingDayKey, data: Pick<WorkingDayRow, 'isWorking'> & Created): Promise<void>;
  updateWorkingDay(key: WorkingDayKey, data: Partial<Omit<WorkingDayRow, keyof WorkingDayKey>>): Promise<void>;
  /** how many live machines, devices and users are placed at a centre */
  dependants(id: string): Promise<{ machines: number; devices: number; users: number }>;
  /** soft-deletes every language of a centre and its working days */
  remove(id: string, stamp: Deleted): Promise<void>;
}

/** The centres' tables (centres, their working days) as the centre rules see them. Every read is of live rows unless it says otherwise. */
export interface CentreStore {
  /** whether a centre exists (in any language) */
  exists(id: string): Promise<boolean>;
  /** the zones a centre lies in (every language) */
  zonesOf(id: string): Promise<string[]>;
  live(key: CentreKey): Promise<CentreRow | null>;
  /** the centres of a language, by id, at most `take` */
  ofLanguage(langCode: string, take: number): Promise<CentreRow[]>;
  /** a centre's working days in a language */
  workingDays(key: CentreKey): Promise<WorkingDayRow[]>;
  /** the working days of these (centre, language) pairs */
  workingDaysOfPairs(pairs: readonly [string, string][]): Promise<WorkingDayRow[]>;
  page(page: PageArgs, filter?: CentreFilter | null): Promise<Connection<CentreRow>>;
  /** every language of these centres, by language */
  byIds(ids: readonly string[]): Promise<CentreRow[]>;
  /** the distinct ids of the centres of these zones */
  idsInZones(zoneCodes: readonly string[]): Promise<string[]>;
  /** `work` in one transaction under the centres' lock; a racing writer's unique key is `taken()` when given */
  locked<T>(work: (tx: LockedCentres) => Promise<T>, taken?: () => Error): Promise<T>;
}

/** The zones a centre lies in (every live language), over the client or a transaction. */
export const centreZones = async (db: Tx | PrismaClient, id: string): Promise<string[]> =>
  (await db.registrationCenter.findMany({ where: { id, ...LIVE }, select: { zoneCode: true } })).map((row) => row.zoneCode);

function lockedCentres(tx: Tx): LockedCentres {
  return {
    nextId: () => nextId(tx, 'centre'),
    zonesOf: (id) => centreZones(tx, id),
    languagesOf: async (id) => (await tx.registrationCenter.findMany({ where: { id, ...LIVE }, select: { langCode: true } })).map((row) => row.langCode),
    row: (key) => tx.registrationCenter.findUnique({ where: { id_langCode: key } }),
    create: (key, data) => tx.registrationCenter.create({ data: { ...key, ...data } }),
    rewrite: (key, data) => tx.registrationCenter.update({ where: { id_langCode: key }, data }),
    updateOtherLanguages: async ({ id, langCode }, shared) => {
      await tx.registrationCenter.updateMany({ where: { id, langCode: { not: langCode }, ...LIVE }, data: shared });
    },
    workingDaysOf: (id) => tx.registrationCenterWorkingDay.findMany({ where: { regCenterId: id } }),
    createWorkingDay: async (key, data) => {
      await tx.registrationCenterWorkingDay.create({ data: { ...key, ...data } });
    },
    updateWorkingDay: async (key, data) => {
      await tx.registrationCenterWorkingDay.update({ where: { regCenterId_dayCode_langCode: key }, data });
    },
    dependants: async (id) => {
      const where = { regCenterId: id, ...LIVE };
      const [machines, devices, users] = await Promise.all([tx.machine.count({ where }), devicesPlacedAt(tx, id), tx.registrationCenterUser.count({ where })]);
      return { machines, devices, users };
    },
    remove: async (id, stamp) => {
      await tx.registrationCenter.updateMany({ where: { id, ...LIVE }, data: stamp });
      await tx.registrationCenterWorkingDay.updateMany({ where: { regCenterId: id, ...LIVE }, data: stamp });
    },
  };
}

/** The centres' tables (md_registration_center, md_reg_center_working_day): the only code that touches them. */
export class CentreStorage implements CentreStore {
  constructor(private readonly prisma: PrismaClient) {}

  async exists(id: string): Promise<boolean> {
    return (await this.prisma.registrationCenter.findFirst({ where: { id, ...LIVE }, select: { id: true } })) !== null;
  }

  zonesOf(id: string): Promise<string[]> {
    return centreZones(this.prisma, id);
  }

  live(key: CentreKey): Promise<CentreRow | null> {
    return this.prisma.registrationCenter.findFirst({ where: { ...key, ...LIVE } });
  }

  ofLanguage(langCode: string, take: number): Promise<CentreRow[]> {
    return this.prisma.registrationCenter.findMany({ where: { langCode, ...LIVE }, orderBy: { id: 'asc' }, take });
  }

  workingDays({ id, langCode }: CentreKey): Promise<WorkingDayRow[]> {
    return this.prisma.registrationCenterWorkingDay.findMany({ where: { regCenterId: id, langCode, ...LIVE } });
  }

  workingDaysOfPairs(pairs: readonly [string, string][]): Promise<WorkingDayRow[]> {
    return this.prisma.registrationCenterWorkingDay.findMany({
      where: { OR: pairs.map(([regCenterId, langCode]) => ({ regCenterId, langCode })), ...LIVE },
    });
  }

  page(page: PageArgs, filter?: CentreFilter | null): Promise<Connection<CentreRow>> {
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

  byIds(ids: readonly string[]): Promise<CentreRow[]> {
    return this.prisma.registrationCenter.findMany({ where: { id: { in: [...ids] }, ...LIVE }, orderBy: { langCode: 'asc' } });
  }

  async idsInZones(zoneCodes: readonly string[]): Promise<string[]> {
    const rows = await this.prisma.registrationCenter.findMany({
      where: { zoneCode: { in: [...zoneCodes] }, ...LIVE },
      select: { id: true },
      distinct: ['id'],
    });
    return rows.map((row) => row.id);
  }

  locked<T>(work: (tx: LockedCentres) => Promise<T>, taken?: () => Error): Promise<T> {
    return lockedWork(this.prisma, 'md_registration_center', lockedCentres, work, taken);
  }
}

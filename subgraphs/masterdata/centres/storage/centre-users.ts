import { Prisma, type PrismaClient, type RegistrationCenterUser } from '../../../../generated/prisma/client.js';
import type { Tx } from '../../../../lib/db/lock.js';
import { LIVE, type Created, type Deleted } from '../../audit.js';
import { centreZones } from './centres.js';
import { lockedWork } from './locks.js';

export type CentreUserRow = RegistrationCenterUser;
export type CentreUserKey = Pick<CentreUserRow, 'regCenterId' | 'userId'>;

/** What mapping a user to a centre reads and writes inside one transaction, under the user's lock. */
export interface LockedCentreUsers {
  /** the zones a centre lies in now (every live language) */
  zonesOfCentre(regCenterId: string): Promise<string[]>;
  /** every mapping of a user, deleted ones too */
  mappingsOf(userId: string): Promise<CentreUserRow[]>;
  create(key: CentreUserKey, data: Created): Promise<CentreUserRow>;
  /** writes over the key's mapping (a deleted one comes back) */
  rewrite(key: CentreUserKey, data: Partial<Omit<CentreUserRow, keyof CentreUserKey>>): Promise<CentreUserRow>;
  /** soft-deletes the key's live mapping; how many rows it wrote */
  remove(key: CentreUserKey, stamp: Deleted): Promise<number>;
  /** the key's mapping, deleted or not */
  mapping(key: CentreUserKey): Promise<CentreUserRow>;
}

/** Who works at which centre (md_reg_center_user) as the rules see it. Every read is of live mappings unless it says otherwise. */
export interface CentreUserStore {
  /** the users mapped to a centre */
  usersOf(regCenterId: string): Promise<string[]>;
  /** the users mapped (actively) to one of these zones, or working at one of these centres or at a live centre of one of these zones */
  placedIn(zoneCodes: readonly string[], centreIds: readonly string[]): Promise<Set<string>>;
  /** the mappings of these users, by user then centre */
  centresOfUsers(userIds: readonly string[]): Promise<Pick<CentreUserRow, 'userId' | 'regCenterId'>[]>;
  /** the key's mapping, deleted or not */
  mapping(key: CentreUserKey): Promise<CentreUserRow | null>;
  /** the centres a user is actively mapped to */
  worksAt(userId: string): Promise<string[]>;
  /** how many users each of these centres has */
  countsAt(centreIds: readonly string[]): Promise<Map<string, number>>;
  /** `work` in one transaction under the user's lock; a racing writer's unique key is `taken()` when given */
  locked<T>(userId: string, work: (tx: LockedCentreUsers) => Promise<T>, taken?: () => Error): Promise<T>;
}

/** `column IN (values)`, FALSE for no values. */
const isIn = (column: Prisma.Sql, values: readonly string[]): Prisma.Sql =>
  values.length ? Prisma.sql`${column} IN (${Prisma.join([...values])})` : Prisma.sql`FALSE`;

function lockedCentreUsers(tx: Tx): LockedCentreUsers {
  return {
    zonesOfCentre: (regCenterId) => centreZones(tx, regCenterId),
    mappingsOf: (userId) => tx.registrationCenterUser.findMany({ where: { userId } }),
    create: (key, data) => tx.registrationCenterUser.create({ data: { ...key, ...data } }),
    rewrite: (key, data) => tx.registrationCenterUser.update({ where: { regCenterId_userId: key }, data }),
    remove: async (key, stamp) => (await tx.registrationCenterUser.updateMany({ where: { ...key, ...LIVE }, data: stamp })).count,
    mapping: (key) => tx.registrationCenterUser.findUniqueOrThrow({ where: { regCenterId_userId: key } }),
  };
}

/** Who works at which centre (md_reg_center_user): the only code that touches it. */
export class CentreUserStorage implements CentreUserStore {
  constructor(private readonly prisma: PrismaClient) {}

  async usersOf(regCenterId: string): Promise<string[]> {
    const rows = await this.prisma.registrationCenterUser.findMany({ where: { regCenterId, ...LIVE }, select: { userId: true } });
    return rows.map((row) => row.userId);
  }

  /** One statement. */
  async placedIn(zoneCodes: readonly string[], centreIds: readonly string[]): Promise<Set<string>> {
    const rows = await this.prisma.$queryRaw<{ userId: string }[]>`
      SELECT zu."userId" FROM "md_zone_user" zu
        WHERE zu."isActive" AND NOT zu."isDeleted" AND ${isIn(Prisma.sql`zu."zoneCode"`, zoneCodes)}
      UNION
      SELECT cu."userId" FROM "md_reg_center_user" cu
        WHERE NOT cu."isDeleted" AND (${isIn(Prisma.sql`cu."regCenterId"`, centreIds)} OR cu."regCenterId" IN (
          SELECT c."id" FROM "md_registration_center" c WHERE NOT c."isDeleted" AND ${isIn(Prisma.sql`c."zoneCode"`, zoneCodes)}))`;
    return new Set(rows.map((row) => row.userId));
  }

  centresOfUsers(userIds: readonly string[]): Promise<Pick<CentreUserRow, 'userId' | 'regCenterId'>[]> {
    return this.prisma.registrationCenterUser.findMany({
      where: { userId: { in: [...userIds] }, ...LIVE },
      select: { userId: true, regCenterId: true },
      orderBy: [{ userId: 'asc' }, { regCenterId: 'asc' }],
    });
  }

  mapping(key: CentreUserKey): Promise<CentreUserRow | null> {
    return this.prisma.registrationCenterUser.findUnique({ where: { regCenterId_userId: key } });
  }

  async worksAt(userId: string): Promise<string[]> {
    const rows = await this.prisma.registrationCenterUser.findMany({ where: { userId, isActive: true, ...LIVE }, select: { regCenterId: true } });
    return rows.map((row) => row.regCenterId);
  }

  /** One grouped query. */
  async countsAt(centreIds: readonly string[]): Promise<Map<string, number>> {
    const groups = await this.prisma.registrationCenterUser.groupBy({
      by: ['regCenterId'],
      where: { regCenterId: { in: [...centreIds] }, ...LIVE },
      _count: { _all: true },
    });
    return new Map(groups.map((group) => [group.regCenterId, group._count._all]));
  }

  locked<T>(userId: string, work: (tx: LockedCentreUsers) => Promise<T>, taken?: () => Error): Promise<T> {
    return lockedWork(this.prisma, `md_reg_center_user:${userId}`, lockedCentreUsers, work, taken);
  }
}

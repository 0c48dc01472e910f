import type { Prisma, PrismaClient, Zone, ZoneUser } from '../../../../generated/prisma/client.js';
import { connection, type Connection, type PageArgs } from '../../../../lib/graph/connection.js';
import { LIVE, type Deleted } from '../../audit.js';
import { pairKey, pairPage } from '../../keys.js';
import { likeLiteral } from '../../search.js';

export type ZoneRow = Zone;
export type ZoneUserRow = ZoneUser;

/** A zone's columns apart from its key (code, langCode), as a create or a revival writes them. */
export type ZoneData = Omit<ZoneRow, 'code' | 'langCode'>;
/** A mapping's columns apart from its key (userId, zoneCode). */
export type ZoneUserData = Omit<ZoneUserRow, 'userId' | 'zoneCode'>;
export type ZoneKey = Pick<ZoneRow, 'code' | 'langCode'>;
export type ZoneUserKey = Pick<ZoneUserRow, 'userId' | 'zoneCode'>;

export interface ZoneFilter {
  langCode?: string | null;
  parentZoneCode?: string | null;
  hierarchyLevel?: number | null;
}

/** The zones' tables (zones and the admins mapped to them) as the zone rules see them: the seam a test fills with rows in memory. Every read is of live rows unless it says otherwise. */
export interface ZoneStore {
  /** the codes of the zones a user is mapped to (active mappings) */
  mappedZoneCodes(userId: string): Promise<string[]>;
  /** the distinct paths of these zones */
  pathsOf(codes: readonly string[]): Promise<string[]>;
  /** a zone's path (its languages share it), undefined for no such zone */
  pathOf(code: string): Promise<string | undefined>;
  /** the distinct codes of the zones at or below one of these paths (none for no path) */
  codesCovered(paths: readonly string[]): Promise<string[]>;
  /** the distinct codes of the zones at or below this path */
  codesAtOrBelow(path: string): Promise<string[]>;
  /** the zones of a language at or below these paths, from the top (by level, then path), at most `take` */
  hierarchy(paths: readonly string[], langCode: string, take: number): Promise<ZoneRow[]>;
  /** which of these zones another zone lies below */
  parentsAmong(codes: readonly string[]): Promise<Set<string | null>>;
  /** every row of a code, deleted ones too */
  rowsOfCode(code: string): Promise<Pick<ZoneRow, 'langCode' | 'path' | 'isDeleted'>[]>;
  parentOf(code: string): Promise<Pick<ZoneRow, 'path' | 'hierarchyLevel'> | null>;
  createZone(key: ZoneKey, data: ZoneData): Promise<ZoneRow>;
  /** writes `data` over the key's deleted row; how many rows it wrote (0 when the row is not deleted) */
  reviveZone(key: ZoneKey, data: ZoneData): Promise<{ count: number }>;
  /** the key's row, deleted or not */
  zone(key: ZoneKey): Promise<ZoneRow>;
  /** the mapping's state, deleted or not; null when there was never one */
  mappingState(key: ZoneUserKey): Promise<{ isDeleted: boolean } | null>;
  createMapping(key: ZoneUserKey, data: ZoneUserData): Promise<ZoneUserRow>;
  reviveMapping(key: ZoneUserKey, data: ZoneUserData): Promise<{ count: number }>;
  /** soft-deletes a live mapping; how many rows it wrote */
  removeMapping(key: ZoneUserKey, stamp: Deleted): Promise<number>;
  /** the key's mapping, deleted or not */
  mapping(key: ZoneUserKey): Promise<ZoneUserRow>;
  /** the active mappings of these users */
  mappingsOfUsers(userIds: readonly string[]): Promise<ZoneUserRow[]>;
  /** every language of these zones, by code then language */
  zonesOfCodes(codes: readonly string[]): Promise<ZoneRow[]>;
  /** the zones at or below these paths, by code and language */
  page(paths: readonly string[], page: PageArgs, filter?: ZoneFilter | null): Promise<Connection<ZoneRow>>;
  /** zones by (code, langCode), deleted ones too */
  byPairs(pairs: readonly [string, string][]): Promise<ZoneRow[]>;
}

/** A zone at `path` or below it: a path is matched segment by segment, its `_` and `%` taken literally (LIKE would match "Z_1/" in "ZX1/"). */
const atOrBelow = (path: string): Prisma.ZoneWhereInput => ({ OR: [{ path }, { path: { startsWith: `${likeLiteral(path)}/` } }] });

/** The zones at or below these paths (none for no path). */
const covered = (paths: readonly string[]): Prisma.ZoneWhereInput => (paths.length ? { OR: paths.map(atOrBelow) } : { code: { in: [] } });

/** The zones' tables (md_zone, md_zone_user): the only code that touches them. */
export class ZoneStorage implements ZoneStore {
  constructor(private readonly prisma: PrismaClient) {}

  async mappedZoneCodes(userId: string): Promise<string[]> {
    const rows = await this.prisma.zoneUser.findMany({ where: { userId, isActive: true, ...LIVE }, select: { zoneCode: true } });
    return rows.map((row) => row.zoneCode);
  }

  async pathsOf(codes: readonly string[]): Promise<string[]> {
    const rows = await this.prisma.zone.findMany({ where: { code: { in: [...codes] }, ...LIVE }, select: { path: true }, distinct: ['path'] });
    return rows.map((row) => row.path);
  }

  async pathOf(code: string): Promise<string | undefined> {
    return (await this.prisma.zone.findFirst({ where: { code, ...LIVE }, select: { path: true } }))?.path;
  }

  codesCovered(paths: readonly string[]): Promise<string[]> {
    return this.codes(covered(paths));
  }

  codesAtOrBelow(path: string): Promise<string[]> {
    return this.codes(atOrBelow(path));
  }

  private async codes(where: Prisma.ZoneWhereInput): Promise<string[]> {
    const rows = await this.prisma.zone.findMany({ where: { AND: [where, LIVE] }, select: { code: true }, distinct: ['code'] });
    return rows.map((row) => row.code);
  }

  hierarchy(paths: readonly string[], langCode: string, take: number): Promise<ZoneRow[]> {
    return this.prisma.zone.findMany({
      where: { AND: [covered(paths), { langCode }, LIVE] },
      orderBy: [{ hierarchyLevel: 'asc' }, { path: 'asc' }],
      take,
    });
  }

  async parentsAmong(codes: readonly string[]): Promise<Set<string | null>> {
    const rows = await this.prisma.zone.findMany({
      where: { parentZoneCode: { in: [...codes] }, ...LIVE },
      select: { parentZoneCode: true },
      distinct: ['parentZoneCode'],
    });
    return new Set(rows.map((row) => row.parentZoneCode));
  }

  rowsOfCode(code: string): Promise<Pick<ZoneRow, 'langCode' | 'path' | 'isDeleted'>[]> {
    return this.prisma.zone.findMany({ where: { code }, select: { langCode: true, path: true, isDeleted: true } });
  }

  parentOf(code: string): Promise<Pick<ZoneRow, 'path' | 'hierarchyLevel'> | null> {
    return this.prisma.zone.findFirst({ where: { code, ...LIVE }, select: { path: true, hierarchyLevel: true } });
  }

  createZone(key: ZoneKey, data: ZoneData): Promise<ZoneRow> {
    return this.prisma.zone.create({ data: { ...key, ...data } });
  }

  reviveZone(key: ZoneKey, data: ZoneData): Promise<{ count: number }> {
    return this.prisma.zone.updateMany({ where: { ...key, isDeleted: true }, data });
  }

  zone(key: ZoneKey): Promise<ZoneRow> {
    return this.prisma.zone.findUniqueOrThrow({ where: { code_langCode: key } });
  }

  mappingState(key: ZoneUserKey): Promise<{ isDeleted: boolean } | null> {
    return this.prisma.zoneUser.findUnique({ where: { userId_zoneCode: key }, select: { isDeleted: true } });
  }

  createMapping(key: ZoneUserKey, data: ZoneUserData): Promise<ZoneUserRow> {
    return this.prisma.zoneUser.create({ data: { ...key, ...data } });
  }

  reviveMapping(key: ZoneUserKey, data: ZoneUserData): Promise<{ count: number }> {
    return this.prisma.zoneUser.updateMany({ where: { ...key, isDeleted: true }, data });
  }

  async removeMapping(key: ZoneUserKey, stamp: Deleted): Promise<number> {
    return (await this.prisma.zoneUser.updateMany({ where: { ...key, ...LIVE }, data: stamp })).count;
  }

  mapping(key: ZoneUserKey): Promise<ZoneUserRow> {
    return this.prisma.zoneUser.findUniqueOrThrow({ where: { userId_zoneCode: key } });
  }

  mappingsOfUsers(userIds: readonly string[]): Promise<ZoneUserRow[]> {
    return this.prisma.zoneUser.findMany({ where: { userId: { in: [...userIds] }, isActive: true, ...LIVE } });
  }

  zonesOfCodes(codes: readonly string[]): Promise<ZoneRow[]> {
    return this.prisma.zone.findMany({ where: { code: { in: [...codes] }, ...LIVE }, orderBy: [{ code: 'asc' }, { langCode: 'asc' }] });
  }

  page(paths: readonly string[], page: PageArgs, filter?: ZoneFilter | null): Promise<Connection<ZoneRow>> {
    const where: Prisma.ZoneWhereInput = {
      AND: [
        covered(paths),
        LIVE,
        filter?.langCode ? { langCode: filter.langCode } : {},
        filter?.parentZoneCode ? { parentZoneCode: filter.parentZoneCode } : {},
        typeof filter?.hierarchyLevel === 'number' ? { hierarchyLevel: filter.hierarchyLevel } : {},
      ],
    };
    return connection(
      page,
      (row) => pairKey(row.code, row.langCode),
      (query) => {
        const { after, ...rest } = pairPage(query);
        return this.prisma.zone.findMany({
          where,
          orderBy: [{ code: 'asc' }, { langCode: 'asc' }],
          ...rest,
          ...(after ? { cursor: { code_langCode: { code: after[0], langCode: after[1] } } } : {}),
        });
      },
      () => this.prisma.zone.count({ where }),
    );
  }

  byPairs(pairs: readonly [string, string][]): Promise<ZoneRow[]> {
    return this.prisma.zone.findMany({ where: { OR: pairs.map(([code, langCode]) => ({ code, langCode })) } });
  }
}

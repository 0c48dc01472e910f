import type { Prisma, PrismaClient, Zone as ZoneRow, ZoneUser as ZoneUserRow } from '../../../generated/prisma/client.js';
import { PlatformError } from '../../../lib/errors.js';
import { connection, type Connection, type PageArgs } from '../../../lib/graph/connection.js';
import type { Clock } from '../../../lib/time.js';
import { created, deleted, LIVE } from '../audit.js';
import { masterdataErrors } from '../errors.js';
import { byPair, insertOrRevive, pairKey, pairPage, parsePair, requireLanguage } from '../keys.js';
import { wholeList } from '../paged.js';
import { likeLiteral } from '../search.js';

/** The most zone rows (zones × languages) User.zones answers for one user. */
export const USER_ZONES_LIMIT = 1000;

export type { ZoneRow, ZoneUserRow };

export interface ZoneInput {
  code: string;
  langCode: string;
  name: string;
  hierarchyLevel: number;
  hierarchyName: string;
  parentZoneCode?: string | null;
}

export interface ZoneFilter {
  langCode?: string | null;
  parentZoneCode?: string | null;
  hierarchyLevel?: number | null;
}

/** Who acts: their id (ZoneUser.userId) and roles. */
export interface Caller {
  subject: string;
  roles: readonly string[];
}

/** Whether a zone is one of the caller's (or below one), outside them, or not a zone at all. */
export type Coverage = 'covered' | 'outside' | 'unknown';

/**
 * The zones a caller administers, as the paths of its mapped zones: a zone
 * is covered when its path is one of them or lies below one ("MOR" covers
 * "MOR/RSK/KTA" but not "MORX").
 */
export class ZoneScope {
  constructor(
    readonly userId: string,
    readonly paths: readonly string[],
  ) {}

  covers(path: string): boolean {
    return this.paths.some((mine) => path === mine || path.startsWith(`${mine}/`));
  }

  /** Prisma's condition on Zone for the zones covered (none when the caller administers none). */
  zoneWhere(): Prisma.ZoneWhereInput {
    return this.paths.length ? { OR: this.paths.map(atOrBelow) } : { code: { in: [] } };
  }
}

/** A zone at `path` or below it: a path is matched segment by segment, its `_` and `%` taken literally (LIKE would match "Z_1/" in "ZX1/"). */
const atOrBelow = (path: string): Prisma.ZoneWhereInput => ({ OR: [{ path }, { path: { startsWith: `${likeLiteral(path)}/` } }] });

/**
 * The zones a caller may write in, read once: the zone-cover check of every
 * master data record placed in a zone (devices, registration centres,
 * machines, a centre's users). It needs no query, so a write checks the rows
 * it reads inside its own transaction.
 */
export class ZoneGuard {
  constructor(private readonly codes: ReadonlySet<string>) {}

  covers(zoneCode: string): boolean {
    return this.codes.has(zoneCode);
  }

  /** KER-MSD-439 unless every zone given is the caller's; a zone that does not exist, or no longer, is no one's. */
  require(what: string, ...zoneCodes: readonly (string | null | undefined)[]): void {
    for (const zoneCode of zoneCodes) if (zoneCode != null && !this.codes.has(zoneCode)) throw masterdataErrors.zoneNotAuthorized(what);
  }
}

/**
 * Zones and the admins mapped to them. Every device rule that says "the
 * caller's zones" asks this service: the caller's mapped zones (ZoneUser)
 * and every zone below them.
 */
export class ZoneService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
    /** whether a user exists (the auth component's users) */
    private readonly userExists: (userId: string) => Promise<boolean>,
  ) {}

  async scopeOf(userId: string): Promise<ZoneScope> {
    const mapped = await this.prisma.zoneUser.findMany({ where: { userId, isActive: true, ...LIVE }, select: { zoneCode: true } });
    if (!mapped.length) return new ZoneScope(userId, []);
    const zones = await this.prisma.zone.findMany({
      where: { code: { in: mapped.map((row) => row.zoneCode) }, ...LIVE },
      select: { path: true },
      distinct: ['path'],
    });
    return new ZoneScope(
      userId,
      zones.map((zone) => zone.path),
    );
  }

  /** The path of a zone (its languages share it), undefined when there is no such zone. */
  async pathOf(code: string): Promise<string | undefined> {
    return (await this.prisma.zone.findFirst({ where: { code, ...LIVE }, select: { path: true } }))?.path;
  }

  /** The guard of a caller's writes: the zones it administers and every zone below them. */
  async guardOf(userId: string): Promise<ZoneGuard> {
    return new ZoneGuard(new Set(await this.coveredCodes(await this.scopeOf(userId))));
  }

  async coverage(scope: ZoneScope, code: string): Promise<Coverage> {
    const path = await this.pathOf(code);
    if (path === undefined) return 'unknown';
    return scope.covers(path) ? 'covered' : 'outside';
  }

  /** The codes of the zones covered, or of those at and below `under` (a covered zone). */
  async coveredCodes(scope: ZoneScope, under?: string): Promise<string[]> {
    const where: Prisma.ZoneWhereInput = under ? atOrBelow(under) : scope.zoneWhere();
    const rows = await this.prisma.zone.findMany({ where: { AND: [where, LIVE] }, select: { code: true }, distinct: ['code'] });
    return rows.map((row) => row.code);
  }

  /** The caller's zones and those below them, in a language, from the top, whole (at most LIST_LIMIT: refused beyond); KER-MSD-339 for a caller without zones. */
  async hierarchy(userId: string, langCode: string): Promise<ZoneRow[]> {
    const scope = await this.scopeOf(userId);
    if (!scope.paths.length) throw masterdataErrors.userZoneUnavailable(userId);
    return wholeList('zones', 'zones', (take) =>
      this.prisma.zone.findMany({
        where: { AND: [scope.zoneWhere(), { langCode }, LIVE] },
        orderBy: [{ hierarchyLevel: 'asc' }, { path: 'asc' }],
        take,
      }),
    );
  }

  /** Of the caller's zones, those no zone lies below (a part of `hierarchy`, so bounded as it is). */
  async leafs(userId: string, langCode: string): Promise<ZoneRow[]> {
    const zones = await this.hierarchy(userId, langCode);
    const parents = await this.prisma.zone.findMany({
      where: { parentZoneCode: { in: zones.map((zone) => zone.code) }, ...LIVE },
      select: { parentZoneCode: true },
      distinct: ['parentZoneCode'],
    });
    const withChildren = new Set(parents.map((row) => row.parentZoneCode));
    return zones.filter((zone) => !withChildren.has(zone.code));
  }

  /**
   * A zone below one the caller administers (its path follows from the
   * parent), or a root zone, which only a GLOBAL_ADMIN creates. The
   * languages of a zone share its parent; a deleted zone comes back.
   */
  async create(caller: Caller, input: ZoneInput): Promise<ZoneRow> {
    await requireLanguage(this.prisma, input.langCode);
    const path = await this.pathFor(caller, input);
    const rows = await this.prisma.zone.findMany({ where: { code: input.code }, select: { langCode: true, path: true, isDeleted: true } });
    const other = rows.find((row) => !row.isDeleted && row.langCode !== input.langCode && row.path !== path);
    if (other) throw masterdataErrors.zoneInsert(`zone ${input.code} lies at ${other.path} in ${other.langCode}: its languages share one parent`);
    const key = { code: input.code, langCode: input.langCode };
    const data = {
      name: input.name,
      hierarchyLevel: input.hierarchyLevel,
      hierarchyName: input.hierarchyName,
      parentZoneCode: input.parentZoneCode ?? null,
      path,
      isActive: true,
      ...created(caller.subject, this.clock.now()),
      updatedBy: null,
      updatedAt: null,
    };
    return insertOrRevive({
      existing: rows.find((row) => row.langCode === input.langCode),
      duplicate: () => masterdataErrors.zoneInsert(`zone ${input.code} already exists in ${input.langCode}`),
      create: () => this.prisma.zone.create({ data: { ...key, ...data } }),
      revive: () => this.prisma.zone.updateMany({ where: { ...key, isDeleted: true }, data }),
      read: () => this.prisma.zone.findUniqueOrThrow({ where: { code_langCode: key } }),
    });
  }

  private async pathFor(caller: Caller, input: ZoneInput): Promise<string> {
    if (!input.parentZoneCode) {
      if (!caller.roles.includes('GLOBAL_ADMIN')) throw new PlatformError('KER-ATH-403', 'Forbidden: only a GLOBAL_ADMIN creates a root zone');
      return input.code;
    }
    if (input.parentZoneCode === input.code) throw masterdataErrors.zoneInsert('a zone cannot be its own parent');
    const parent = await this.prisma.zone.findFirst({ where: { code: input.parentZoneCode, ...LIVE }, select: { path: true, hierarchyLevel: true } });
    if (!parent) throw masterdataErrors.zoneNotFound(input.parentZoneCode);
    if (!(await this.scopeOf(caller.subject)).covers(parent.path)) throw masterdataErrors.zoneNotAuthorized();
    if (input.hierarchyLevel <= parent.hierarchyLevel) {
      throw masterdataErrors.zoneInsert(`hierarchyLevel ${input.hierarchyLevel} must lie below its parent's (${parent.hierarchyLevel})`);
    }
    return `${parent.path}/${input.code}`;
  }

  /** Maps an admin (a user of auth) to a zone; a deleted mapping comes back. */
  async mapUser(by: string, userId: string, zoneCode: string): Promise<ZoneUserRow> {
    if (!(await this.userExists(userId))) throw masterdataErrors.zoneUserNotFound(`no user ${userId}`);
    if ((await this.pathOf(zoneCode)) === undefined) throw masterdataErrors.zoneNotFound(zoneCode);
    const key = { userId, zoneCode };
    const data = { isActive: true, ...created(by, this.clock.now()), updatedBy: null, updatedAt: null };
    return insertOrRevive({
      existing: await this.prisma.zoneUser.findUnique({ where: { userId_zoneCode: key }, select: { isDeleted: true } }),
      duplicate: () => masterdataErrors.zoneUserInsert(`user ${userId} is already mapped to zone ${zoneCode}`),
      create: () => this.prisma.zoneUser.create({ data: { ...key, ...data } }),
      revive: () => this.prisma.zoneUser.updateMany({ where: { ...key, isDeleted: true }, data }),
      read: () => this.prisma.zoneUser.findUniqueOrThrow({ where: { userId_zoneCode: key } }),
    });
  }

  async unmapUser(by: string, userId: string, zoneCode: string): Promise<ZoneUserRow> {
    const { count } = await this.prisma.zoneUser.updateMany({ where: { userId, zoneCode, ...LIVE }, data: deleted(by, this.clock.now()) });
    if (!count) throw masterdataErrors.zoneUserNotFound(`user ${userId} is not mapped to zone ${zoneCode}`);
    return this.prisma.zoneUser.findUniqueOrThrow({ where: { userId_zoneCode: { userId, zoneCode } } });
  }

  /**
   * The zones each user is mapped to, every language, in two queries for a
   * page of users: those the caller covers (`scope`, its own zones and those
   * below them), as every zone list it reads.
   */
  async zonesOfUsers(userIds: readonly string[], scope: ZoneScope): Promise<Map<string, ZoneRow[]>> {
    const mapped = await this.prisma.zoneUser.findMany({ where: { userId: { in: [...userIds] }, isActive: true, ...LIVE } });
    const zones = (
      await this.prisma.zone.findMany({
        where: { code: { in: [...new Set(mapped.map((row) => row.zoneCode))] }, ...LIVE },
        orderBy: [{ code: 'asc' }, { langCode: 'asc' }],
      })
    ).filter((zone) => scope.covers(zone.path));
    const result = new Map<string, ZoneRow[]>(userIds.map((userId) => [userId, []]));
    for (const row of mapped) result.get(row.userId)?.push(...zones.filter((zone) => zone.code === row.zoneCode));
    // The bound the schema declares (User.zones): an admin's zones in every language, far beyond any real mapping.
    for (const [userId, rows] of result) if (rows.length > USER_ZONES_LIMIT) result.set(userId, rows.slice(0, USER_ZONES_LIMIT));
    return result;
  }

  /** The caller's zones and those below them, by code and language. */
  async list(userId: string, page: PageArgs, filter?: ZoneFilter | null): Promise<Connection<ZoneRow>> {
    const scope = await this.scopeOf(userId);
    const where: Prisma.ZoneWhereInput = {
      AND: [
        scope.zoneWhere(),
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

  /** Zones by (code, langCode) pairKey, in one query. */
  async byKeys(keys: readonly string[]): Promise<Map<string, ZoneRow>> {
    const pairs = keys.map(parsePair);
    const rows = await this.prisma.zone.findMany({ where: { OR: pairs.map(([code, langCode]) => ({ code, langCode })) } });
    return byPair(rows, (row) => [row.code, row.langCode]);
  }
}

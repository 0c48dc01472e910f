import { PlatformError } from '../../../lib/errors.js';
import type { Connection, PageArgs } from '../../../lib/graph/connection.js';
import type { Clock } from '../../../lib/time.js';
import { created, deleted } from '../audit.js';
import { masterdataErrors } from '../errors.js';
import { byPair, checkLanguage, insertOrRevive, parsePair } from '../keys.js';
import { wholeList } from '../paged.js';
import type { LanguageStore } from '../storage.js';
import type { ZoneFilter, ZoneRow, ZoneStore, ZoneUserRow } from './storage/zones.js';

/** The most zone rows (zones × languages) User.zones answers for one user. */
export const USER_ZONES_LIMIT = 1000;

export type { ZoneFilter, ZoneRow, ZoneUserRow };

export interface ZoneInput {
  code: string;
  langCode: string;
  name: string;
  hierarchyLevel: number;
  hierarchyName: string;
  parentZoneCode?: string | null;
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
}

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
    private readonly store: ZoneStore,
    private readonly languages: LanguageStore,
    private readonly clock: Clock,
    /** whether a user exists (the auth component's users) */
    private readonly userExists: (userId: string) => Promise<boolean>,
  ) {}

  async scopeOf(userId: string): Promise<ZoneScope> {
    const mapped = await this.store.mappedZoneCodes(userId);
    if (!mapped.length) return new ZoneScope(userId, []);
    return new ZoneScope(userId, await this.store.pathsOf(mapped));
  }

  /** The path of a zone (its languages share it), undefined when there is no such zone. */
  pathOf(code: string): Promise<string | undefined> {
    return this.store.pathOf(code);
  }

  /** Whether a zone exists (in any language, not deleted). */
  async exists(code: string): Promise<boolean> {
    return (await this.store.pathOf(code)) !== undefined;
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
  coveredCodes(scope: ZoneScope, under?: string): Promise<string[]> {
    return under ? this.store.codesAtOrBelow(under) : this.store.codesCovered(scope.paths);
  }

  /** The caller's zones and those below them, in a language, from the top, whole (at most LIST_LIMIT: refused beyond); KER-MSD-339 for a caller without zones. */
  async hierarchy(userId: string, langCode: string): Promise<ZoneRow[]> {
    const scope = await this.scopeOf(userId);
    if (!scope.paths.length) throw masterdataErrors.userZoneUnavailable(userId);
    return wholeList('zones', 'zones', (take) => this.store.hierarchy(scope.paths, langCode, take));
  }

  /** Of the caller's zones, those no zone lies below (a part of `hierarchy`, so bounded as it is). */
  async leafs(userId: string, langCode: string): Promise<ZoneRow[]> {
    const zones = await this.hierarchy(userId, langCode);
    const withChildren = await this.store.parentsAmong(zones.map((zone) => zone.code));
    return zones.filter((zone) => !withChildren.has(zone.code));
  }

  /**
   * A zone below one the caller administers (its path follows from the
   * parent), or a root zone, which only a GLOBAL_ADMIN creates. The
   * languages of a zone share its parent; a deleted zone comes back.
   */
  async create(caller: Caller, input: ZoneInput): Promise<ZoneRow> {
    await checkLanguage(this.languages, input.langCode);
    const path = await this.pathFor(caller, input);
    const rows = await this.store.rowsOfCode(input.code);
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
      create: () => this.store.createZone(key, data),
      revive: () => this.store.reviveZone(key, data),
      read: () => this.store.zone(key),
    });
  }

  private async pathFor(caller: Caller, input: ZoneInput): Promise<string> {
    if (!input.parentZoneCode) {
      if (!caller.roles.includes('GLOBAL_ADMIN')) throw new PlatformError('KER-ATH-403', 'Forbidden: only a GLOBAL_ADMIN creates a root zone');
      return input.code;
    }
    if (input.parentZoneCode === input.code) throw masterdataErrors.zoneInsert('a zone cannot be its own parent');
    const parent = await this.store.parentOf(input.parentZoneCode);
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
      existing: await this.store.mappingState(key),
      duplicate: () => masterdataErrors.zoneUserInsert(`user ${userId} is already mapped to zone ${zoneCode}`),
      create: () => this.store.createMapping(key, data),
      revive: () => this.store.reviveMapping(key, data),
      read: () => this.store.mapping(key),
    });
  }

  async unmapUser(by: string, userId: string, zoneCode: string): Promise<ZoneUserRow> {
    const key = { userId, zoneCode };
    if (!(await this.store.removeMapping(key, deleted(by, this.clock.now())))) {
      throw masterdataErrors.zoneUserNotFound(`user ${userId} is not mapped to zone ${zoneCode}`);
    }
    return this.store.mapping(key);
  }

  /**
   * The zones each user is mapped to, every language, in two queries for a
   * page of users: those the caller covers (`scope`, its own zones and those
   * below them), as every zone list it reads.
   */
  async zonesOfUsers(userIds: readonly string[], scope: ZoneScope): Promise<Map<string, ZoneRow[]>> {
    const mapped = await this.store.mappingsOfUsers(userIds);
    const zones = (await this.store.zonesOfCodes([...new Set(mapped.map((row) => row.zoneCode))])).filter((zone) => scope.covers(zone.path));
    const result = new Map<string, ZoneRow[]>(userIds.map((userId) => [userId, []]));
    for (const row of mapped) result.get(row.userId)?.push(...zones.filter((zone) => zone.code === row.zoneCode));
    // The bound the schema declares (User.zones): an admin's zones in every language, far beyond any real mapping.
    for (const [userId, rows] of result) if (rows.length > USER_ZONES_LIMIT) result.set(userId, rows.slice(0, USER_ZONES_LIMIT));
    return result;
  }

  /** The caller's zones and those below them, by code and language. */
  async list(userId: string, page: PageArgs, filter?: ZoneFilter | null): Promise<Connection<ZoneRow>> {
    return this.store.page((await this.scopeOf(userId)).paths, page, filter);
  }

  /** Zones by (code, langCode) pairKey, in one query. */
  async byKeys(keys: readonly string[]): Promise<Map<string, ZoneRow>> {
    const rows = await this.store.byPairs(keys.map(parsePair));
    return byPair(rows, (row) => [row.code, row.langCode]);
  }
}

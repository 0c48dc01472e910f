import type { Device as DeviceRow, Prisma, PrismaClient } from '../../../generated/prisma/client.js';
import { connection, type Connection, type PageArgs } from '../../../lib/graph/connection.js';
import { instantOr, type Clock } from '../../../lib/time.js';
import { created, deleted, LIVE, updated } from '../audit.js';
import { masterdataErrors } from '../errors.js';
import { wholeList } from '../paged.js';
import { filterValues, likeLiteral, runSearch, type FilterValuesRequest, type SearchColumns, type SearchRequest } from '../search.js';
import type { DeviceCatalogueService } from './catalogue.js';
import { byPair, insertOrRevive, pairKey, pairPage, parsePair, requireLanguage } from '../keys.js';
import type { ZoneService } from './zones.js';
import type { Caller, CentreReach } from '../centres/reach.js';

export type { DeviceRow };

/** MOSIP's DeviceDto. */
export interface DeviceInput {
  id: string;
  name: string;
  serialNum: string;
  deviceSpecId: string;
  macAddress: string;
  ipAddress?: string | null;
  langCode: string;
  isActive: boolean;
  validityDateTime: string;
  zoneCode: string;
}

export interface DeviceFilter {
  langCode?: string | null;
  zoneCode?: string | null;
  deviceType?: string | null;
  deviceSpecId?: string | null;
  isActive?: boolean | null;
  name?: string | null;
  regCenterId?: string | null;
}

/**
 * A device list's filter as conditions on the rows, once its rules are
 * read (the caller's zones, a zone's subtree, a type's specifications):
 * the portal's list and the lists under a page of centres apply the same.
 */
export interface DeviceConditions {
  /** the zones the rows lie in: the caller's, or those of them at and below the zone asked for */
  zoneCodes: readonly string[];
  /** the specifications of the device type asked for */
  specIds?: readonly string[];
  deviceSpecId?: string;
  langCode?: string;
  isActive?: boolean;
  /** part of the name, any case, taken literally */
  name?: string;
  /** the centre the rows are placed at (a centre's own list gives it by parent) */
  regCenterId?: string;
}

/** Prisma's condition on Device for the live rows that meet `conditions`. */
export const deviceWhere = (conditions: DeviceConditions): Prisma.DeviceWhereInput => ({
  AND: [
    LIVE,
    { zoneCode: { in: [...conditions.zoneCodes] } },
    conditions.specIds ? { deviceSpecId: { in: [...conditions.specIds] } } : {},
    conditions.deviceSpecId ? { deviceSpecId: conditions.deviceSpecId } : {},
    conditions.langCode ? { langCode: conditions.langCode } : {},
    conditions.isActive !== undefined ? { isActive: conditions.isActive } : {},
    conditions.name ? { name: { contains: likeLiteral(conditions.name), mode: 'insensitive' } } : {},
    conditions.regCenterId ? { regCenterId: conditions.regCenterId } : {},
  ],
});

const TEXT = ['contains', 'equals', 'startsWith'] as const;

/** The columns a device search filters and sorts by (MOSIP's names). */
const COLUMNS: SearchColumns = {
  id: { field: 'id', kind: 'text', filters: TEXT },
  name: { field: 'name', kind: 'text', filters: TEXT },
  serialNum: { field: 'serialNum', kind: 'text', filters: TEXT },
  macAddress: { field: 'macAddress', kind: 'text', filters: TEXT },
  deviceSpecId: { field: 'deviceSpecId', kind: 'text', filters: TEXT },
  zoneCode: { field: 'zoneCode', kind: 'text', filters: TEXT },
  isActive: { field: 'isActive', kind: 'boolean', filters: ['equals'] },
  createdDateTime: { field: 'createdAt', kind: 'date' },
  updatedDateTime: { field: 'updatedAt', kind: 'date' },
};
const KEY = ['id', 'langCode'] as const;
/** What KER-MSD-439 names. */
const DEVICE = 'device';

/** What a device is apart from its name: the same in each of its languages. */
/** A device's validity as a request writes it: an ISO 8601 instant, UTC when it has no zone. */
export const deviceValidity = (text: string): Date => instantOr(text, () => masterdataErrors.deviceInsert('validityDateTime must be an ISO 8601 instant'));

const sharedFields = (input: DeviceInput, validityDateTime: Date) => ({
  serialNum: input.serialNum,
  deviceSpecId: input.deviceSpecId,
  macAddress: input.macAddress,
  ipAddress: input.ipAddress ?? null,
  zoneCode: input.zoneCode,
  validityDateTime,
  isActive: input.isActive,
});

/**
 * Devices, each in a zone. Every caller acts in its own scope: writes need
 * the device's zone (and the new zone) to be one of the caller's
 * (KER-MSD-439, as for a zone that does not exist, MOSIP's
 * Invalid_Device_Zone_notPresentInDB, or one since deleted); reads, searches and
 * lists show only the caller's zones. Zone, specification and status
 * belong to the device, so its languages share them; deletion and
 * decommissioning take every language.
 */
export class DeviceService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
    private readonly zones: ZoneService,
    private readonly catalogue: DeviceCatalogueService,
    /** the centres area's reach (built after this area: asked at call time) */
    private readonly centreReach: () => CentreReach,
  ) {}

  async create(by: string, input: DeviceInput): Promise<DeviceRow> {
    await requireLanguage(this.prisma, input.langCode);
    const validity = deviceValidity(input.validityDateTime);
    (await this.zones.guardOf(by)).require(DEVICE, input.zoneCode);
    if (!(await this.catalogue.specificationExists(input.deviceSpecId))) {
      throw masterdataErrors.deviceInsert(`device specification ${input.deviceSpecId} not found`);
    }
    const rows = await this.prisma.device.findMany({ where: { id: input.id }, select: { langCode: true, zoneCode: true, isDeleted: true } });
    const other = rows.find((row) => !row.isDeleted && row.langCode !== input.langCode && row.zoneCode !== input.zoneCode);
    if (other) throw masterdataErrors.deviceInsert(`device ${input.id} is in zone ${other.zoneCode} (${other.langCode}): its languages share one zone`);
    const key = { id: input.id, langCode: input.langCode };
    const data = { name: input.name, ...sharedFields(input, validity), ...created(by, this.clock.now()), updatedBy: null, updatedAt: null };
    return insertOrRevive({
      existing: rows.find((row) => row.langCode === input.langCode),
      duplicate: () => masterdataErrors.deviceInsert(`device ${input.id} already exists in ${input.langCode}`),
      create: () => this.prisma.device.create({ data: { ...key, ...data } }),
      revive: () => this.prisma.device.updateMany({ where: { ...key, isDeleted: true }, data }),
      read: () => this.prisma.device.findUniqueOrThrow({ where: { id_langCode: key } }),
    });
  }

  async update(by: string, input: DeviceInput): Promise<DeviceRow> {
    const key = { id: input.id, langCode: input.langCode };
    const row = await this.prisma.device.findFirst({ where: { ...key, ...LIVE } });
    if (!row) throw masterdataErrors.deviceNotFound(input.id);
    (await this.zones.guardOf(by)).require(DEVICE, row.zoneCode, input.zoneCode);
    const validity = deviceValidity(input.validityDateTime);
    if (!(await this.catalogue.specificationExists(input.deviceSpecId))) {
      throw masterdataErrors.deviceUpdate(`device specification ${input.deviceSpecId} not found`);
    }
    const now = this.clock.now();
    await this.prisma.$transaction([
      this.prisma.device.updateMany({ where: { id: input.id, ...LIVE }, data: { ...sharedFields(input, validity), ...updated(by, now) } }),
      this.prisma.device.update({ where: { id_langCode: key }, data: { name: input.name } }),
    ]);
    return this.prisma.device.findUniqueOrThrow({ where: { id_langCode: key } });
  }

  /** Decommissioning: every language soft-deleted and inactive, unless the device is placed at a centre (KER-MSD-440). */
  decommission(by: string, id: string): Promise<string> {
    return this.retire(by, id, masterdataErrors.deviceMappedToCentre);
  }

  /** Deletion: as decommissioning, refused while the device is placed at a centre (KER-MSD-147). */
  delete(by: string, id: string): Promise<string> {
    return this.retire(by, id, masterdataErrors.deviceDependency);
  }

  private async retire(by: string, id: string, placed: (id: string) => Error): Promise<string> {
    const rows = await this.prisma.device.findMany({ where: { id, ...LIVE }, select: { zoneCode: true, regCenterId: true } });
    if (!rows.length) throw masterdataErrors.deviceNotFound(id);
    (await this.zones.guardOf(by)).require(DEVICE, ...rows.map((row) => row.zoneCode));
    if (rows.some((row) => row.regCenterId)) throw placed(id);
    await this.prisma.device.updateMany({ where: { id, ...LIVE }, data: deleted(by, this.clock.now()) });
    return id;
  }

  /** One device of the caller's zones. */
  async get(userId: string, id: string, langCode: string): Promise<DeviceRow> {
    const row = await this.prisma.device.findFirst({ where: { id, langCode, ...LIVE } });
    if (!row) throw masterdataErrors.deviceNotFound(id);
    (await this.zones.guardOf(userId)).require(DEVICE, row.zoneCode);
    return row;
  }

  /** The caller's devices of a language (and device type), whole (at most LIST_LIMIT: refused beyond); none is KER-MSD-010, as MOSIP answers. */
  async byLanguage(userId: string, langCode: string, deviceType?: string): Promise<DeviceRow[]> {
    const zoneCodes = await this.zones.coveredCodes(await this.zones.scopeOf(userId));
    const specIds = deviceType === undefined ? undefined : await this.catalogue.specificationIdsOfType(deviceType);
    const rows = await wholeList('devices', 'devices', (take) =>
      this.prisma.device.findMany({
        where: { langCode, zoneCode: { in: zoneCodes }, ...(specIds ? { deviceSpecId: { in: specIds } } : {}), ...LIVE },
        orderBy: [{ id: 'asc' }],
        take,
      }),
    );
    if (!rows.length) throw masterdataErrors.deviceNotFound();
    return rows;
  }

  /** The live devices of the caller's zones (of a language, when the request names one). */
  private async scopeWhere(userId: string, languageCode?: string | null, zoneFilters: readonly string[] = []): Promise<Prisma.DeviceWhereInput> {
    const scope = await this.zones.scopeOf(userId);
    // Asking for a zone outside one's own is refused, not answered with nothing.
    for (const zoneCode of zoneFilters) if ((await this.zones.coverage(scope, zoneCode)) === 'outside') throw masterdataErrors.zoneNotAuthorized();
    return { ...LIVE, zoneCode: { in: await this.zones.coveredCodes(scope) }, ...(languageCode ? { langCode: languageCode } : {}) };
  }

  /** MOSIP's device search over the caller's zones. */
  async search(userId: string, request: SearchRequest) {
    const zoneFilters = (request.filters ?? [])
      .filter((filter) => filter.columnName.toLowerCase() === 'zonecode' && filter.type.toLowerCase() === 'equals' && filter.value)
      .map((filter) => filter.value!);
    const scope = await this.scopeWhere(userId, request.languageCode, zoneFilters);
    return runSearch(
      request,
      COLUMNS,
      { sortfield: 'createdDateTime', sorttype: 'DESC' },
      KEY,
      scope,
      (query) =>
        this.prisma.device.findMany({
          where: query.where as Prisma.DeviceWhereInput,
          orderBy: query.orderBy,
          skip: query.skip,
          take: query.take,
        }),
      (where) => this.prisma.device.count({ where: where as Prisma.DeviceWhereInput }),
    );
  }

  /** The values of device columns over the caller's zones. */
  async filterValues(userId: string, request: FilterValuesRequest) {
    const scope = await this.scopeWhere(userId, request.languageCode);
    return filterValues(request, COLUMNS, scope, async (where, field, distinct, take) => {
      const column = field as Prisma.DeviceScalarFieldEnum;
      const rows = await this.prisma.device.findMany({
        where: where,
        select: { [column]: true },
        ...(distinct ? { distinct: [column] } : {}),
        orderBy: { [column]: 'asc' },
        take,
      });
      return rows.map((row) => (row as Record<string, unknown>)[column]);
    });
  }

  /**
   * A list's filter as conditions on the rows: the caller's zones, or, with
   * a zoneCode, that zone and those below it (one outside the caller's is
   * KER-MSD-439, one that does not exist holds nothing); a device type is
   * its specifications.
   */
  async conditions(userId: string, filter?: DeviceFilter | null): Promise<DeviceConditions> {
    const scope = await this.zones.scopeOf(userId);
    let zoneCodes: string[];
    if (filter?.zoneCode) {
      const path = await this.zones.pathOf(filter.zoneCode);
      if (path !== undefined && !scope.covers(path)) throw masterdataErrors.zoneNotAuthorized();
      zoneCodes = path === undefined ? [] : await this.zones.coveredCodes(scope, path);
    } else zoneCodes = await this.zones.coveredCodes(scope);
    return {
      zoneCodes,
      ...(filter?.deviceType ? { specIds: await this.catalogue.specificationIdsOfType(filter.deviceType) } : {}),
      ...(filter?.deviceSpecId ? { deviceSpecId: filter.deviceSpecId } : {}),
      ...(filter?.langCode ? { langCode: filter.langCode } : {}),
      ...(typeof filter?.isActive === 'boolean' ? { isActive: filter.isActive } : {}),
      ...(filter?.name ? { name: filter.name } : {}),
      ...(filter?.regCenterId ? { regCenterId: filter.regCenterId } : {}),
    };
  }

  /**
   * The caller's devices for the portal; a zoneCode filter takes that zone
   * and those below it. A centre asked for that the caller does not reach
   * is refused (KER-MSD-439), as the machines list refuses it.
   */
  async list(caller: Caller, page: PageArgs, filter?: DeviceFilter | null): Promise<Connection<DeviceRow>> {
    if (filter?.regCenterId) {
      const reach = this.centreReach();
      await reach.requireListed(await reach.of(caller), filter.regCenterId);
    }
    const where = deviceWhere(await this.conditions(caller.subject, filter));
    return connection(
      page,
      (row) => pairKey(row.id, row.langCode),
      (query) => {
        const { after, ...rest } = pairPage(query);
        return this.prisma.device.findMany({
          where,
          orderBy: [{ id: 'asc' }, { langCode: 'asc' }],
          ...rest,
          ...(after ? { cursor: { id_langCode: { id: after[0], langCode: after[1] } } } : {}),
        });
      },
      () => this.prisma.device.count({ where }),
    );
  }

  /** Devices by (id, langCode) pairKey, in one query; another admin's come back as absent. */
  async byKeys(userId: string, keys: readonly string[]): Promise<Map<string, DeviceRow>> {
    const zoneCodes = await this.zones.coveredCodes(await this.zones.scopeOf(userId));
    const rows = await this.prisma.device.findMany({
      where: { OR: keys.map(parsePair).map(([id, langCode]) => ({ id, langCode })), zoneCode: { in: zoneCodes } },
    });
    return byPair(rows, (row) => [row.id, row.langCode]);
  }
}

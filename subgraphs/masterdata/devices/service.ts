import type { Connection, PageArgs } from '../../../lib/graph/connection.js';
import type { NestedList } from '../../../lib/graph/nested.js';
import type { Clock } from '../../../lib/time.js';
import type { Principal } from '../../../lib/tokens.js';
import { masterdataErrors } from '../errors.js';
import { byPair, parsePair } from '../keys.js';
import { wholeList } from '../paged.js';
import type { FilterValuesRequest, SearchRequest } from '../search.js';
import type { LanguageStore } from '../storage.js';
import type { DeviceCatalogueService } from './catalogue.js';
import type { DeviceConditions, DeviceRow, DeviceStore } from './storage/devices.js';
import { createDevice, retireDevice, updateDevice, type DeviceInput, type DeviceWriting } from './write-device.js';
import type { ZoneService } from './zones.js';

export type { DeviceConditions, DeviceInput, DeviceRow };
export { deviceValidity } from './inputs.js';

export interface DeviceFilter {
  langCode?: string | null;
  zoneCode?: string | null;
  deviceType?: string | null;
  deviceSpecId?: string | null;
  isActive?: boolean | null;
  name?: string | null;
  regCenterId?: string | null;
}

/** Who lists devices: its id (as zone and centre mappings name it) and roles. */
export type Caller = Pick<Principal, 'subject' | 'roles'>;

/** What KER-MSD-439 names. */
const DEVICE = 'device';

/**
 * Devices, each in a zone. Every caller acts in its own scope: writes need
 * the device's zone (and the new zone) to be one of the caller's
 * (KER-MSD-439, as for a zone that does not exist, MOSIP's
 * Invalid_Device_Zone_notPresentInDB, or one since deleted); reads, searches and
 * lists show only the caller's zones. Zone, specification and status
 * belong to the device, so its languages share them; deletion and
 * decommissioning take every language (write-device.ts).
 */
export class DeviceService {
  private readonly writing: DeviceWriting;

  constructor(
    private readonly store: DeviceStore,
    languages: LanguageStore,
    clock: Clock,
    private readonly zones: ZoneService,
    private readonly catalogue: DeviceCatalogueService,
    /** refuses a centre a list asks for that the caller does not reach (the centres area's reach, built after this area) */
    private readonly requireCentreListed: (caller: Caller, centreId: string) => Promise<void>,
  ) {
    this.writing = { store, languages, clock, zones, catalogue };
  }

  create(by: string, input: DeviceInput): Promise<DeviceRow> {
    return createDevice(this.writing, by, input);
  }

  update(by: string, input: DeviceInput): Promise<DeviceRow> {
    return updateDevice(this.writing, by, input);
  }

  /** Decommissioning: every language soft-deleted and inactive, unless the device is placed at a centre (KER-MSD-440). */
  decommission(by: string, id: string): Promise<string> {
    return retireDevice(this.writing, by, id, masterdataErrors.deviceMappedToCentre);
  }

  /** Deletion: as decommissioning, refused while the device is placed at a centre (KER-MSD-147). */
  delete(by: string, id: string): Promise<string> {
    return retireDevice(this.writing, by, id, masterdataErrors.deviceDependency);
  }

  /** One device of the caller's zones. */
  async get(userId: string, id: string, langCode: string): Promise<DeviceRow> {
    const row = await this.store.live({ id, langCode });
    if (!row) throw masterdataErrors.deviceNotFound(id);
    (await this.zones.guardOf(userId)).require(DEVICE, row.zoneCode);
    return row;
  }

  /** The caller's devices of a language (and device type), whole (at most LIST_LIMIT: refused beyond); none is KER-MSD-010, as MOSIP answers. */
  async byLanguage(userId: string, langCode: string, deviceType?: string): Promise<DeviceRow[]> {
    const zoneCodes = await this.zones.coveredCodes(await this.zones.scopeOf(userId));
    const specIds = deviceType === undefined ? undefined : await this.catalogue.specificationIdsOfType(deviceType);
    const rows = await wholeList('devices', 'devices', (take) => this.store.ofLanguage(langCode, zoneCodes, specIds, take));
    if (!rows.length) throw masterdataErrors.deviceNotFound();
    return rows;
  }

  /** The caller's zones (of a language, when the request names one); asking for a zone outside one's own is refused, not answered with nothing. */
  private async scope(userId: string, languageCode?: string | null, zoneFilters: readonly string[] = []) {
    const scope = await this.zones.scopeOf(userId);
    for (const zoneCode of zoneFilters) if ((await this.zones.coverage(scope, zoneCode)) === 'outside') throw masterdataErrors.zoneNotAuthorized();
    return { zoneCodes: await this.zones.coveredCodes(scope), langCode: languageCode };
  }

  /** MOSIP's device search over the caller's zones. */
  async search(userId: string, request: SearchRequest) {
    const zoneFilters = (request.filters ?? [])
      .filter((filter) => filter.columnName.toLowerCase() === 'zonecode' && filter.type.toLowerCase() === 'equals' && filter.value)
      .map((filter) => filter.value!);
    return this.store.search(await this.scope(userId, request.languageCode, zoneFilters), request);
  }

  /** The values of device columns over the caller's zones. */
  async filterValues(userId: string, request: FilterValuesRequest) {
    return this.store.filterValues(await this.scope(userId, request.languageCode), request);
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
    if (filter?.regCenterId) await this.requireCentreListed(caller, filter.regCenterId);
    return this.store.page(await this.conditions(caller.subject, filter), page);
  }

  /**
   * The devices placed at each centre of a page, among those of the caller's
   * zones that meet the filter (read once, when the list is first read): what
   * `devices(filter)` answers for each centre alone.
   */
  atCentres(userId: string, filter: DeviceFilter): NestedList<DeviceRow> {
    return this.store.atCentres(() => this.conditions(userId, filter));
  }

  /** Devices by (id, langCode) pairKey, in one query; another admin's come back as absent. */
  async byKeys(userId: string, keys: readonly string[]): Promise<Map<string, DeviceRow>> {
    const zoneCodes = await this.zones.coveredCodes(await this.zones.scopeOf(userId));
    return byPair(await this.store.byPairs(keys.map(parsePair), zoneCodes), (row) => [row.id, row.langCode]);
  }
}

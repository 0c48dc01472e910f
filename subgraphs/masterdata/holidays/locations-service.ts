import type { Connection, PageArgs } from '../../../lib/graph/connection.js';
import type { Clock } from '../../../lib/time.js';
import { created } from '../audit.js';
import { masterdataErrors } from '../errors.js';
import { pairKey, parsePair } from '../keys.js';
import { wholeList } from '../paged.js';
import type { LocationRow } from './rows.js';
import type { LocationConditions, LocationStore } from './storage.js';

export type { LocationRow };

/** How many levels a location's hierarchy answer climbs at most (a country's levels are a handful; a cycle stops here). */
export const LOCATION_DEPTH = 16;

export interface LocationInput {
  code: string;
  langCode: string;
  name: string;
  hierarchyLevel: number;
  hierarchyName: string;
  parentLocCode?: string | null;
  isActive: boolean;
}

export type LocationFilter = LocationConditions;

/** The location hierarchy (country, region, province, city, ...), one row per language. */
export class LocationService {
  constructor(
    private readonly store: LocationStore,
    private readonly clock: Clock,
  ) {}

  async create(by: string, input: LocationInput): Promise<LocationRow> {
    if (input.parentLocCode) {
      const parent = await this.store.anyLive(input.parentLocCode);
      if (!parent) throw masterdataErrors.locationNotFound(input.parentLocCode);
      if (parent.hierarchyLevel !== input.hierarchyLevel - 1)
        throw masterdataErrors.locationInsert(`a level ${input.hierarchyLevel} location needs a parent of level ${input.hierarchyLevel - 1}`);
    } else if (input.hierarchyLevel !== 0) throw masterdataErrors.locationInsert('only the country (level 0) has no parent');
    const values = {
      name: input.name,
      hierarchyLevel: input.hierarchyLevel,
      hierarchyName: input.hierarchyName,
      parentCode: input.parentLocCode ?? null,
      isActive: input.isActive,
      ...created(by, this.clock.now()),
    };
    // Create, or revive a deleted row of the same key; a live one is a duplicate.
    const existing = await this.store.rowOf(input.code, input.langCode);
    if (existing && !existing.isDeleted) throw masterdataErrors.locationInsert(`location ${input.code} (${input.langCode}) already exists`);
    return this.store.save(input.code, input.langCode, values);
  }

  /** A live location in any language, or KER-MSD-026. */
  async mustExist(code: string): Promise<void> {
    if (!(await this.store.exists(code))) throw masterdataErrors.locationNotFound(code);
  }

  /** The locations of a language, whole (at most LIST_LIMIT: refused beyond). */
  byLanguage(langCode: string): Promise<LocationRow[]> {
    return wholeList('locations', 'locations', (take) => this.store.ofLanguage(langCode, take));
  }

  /** The location and its ancestors up to the country, nearest first (at most LOCATION_DEPTH of them). */
  async hierarchy(code: string, langCode: string): Promise<LocationRow[]> {
    const chain: LocationRow[] = [];
    for (let next: string | null = code; next && chain.length < LOCATION_DEPTH;) {
      const row: LocationRow | null = await this.store.liveRow(next, langCode);
      if (!row) break;
      chain.push(row);
      next = row.parentCode;
    }
    if (!chain.length) throw masterdataErrors.locationNotFound(code);
    return chain;
  }

  /** A location's children in a language, whole (at most LIST_LIMIT: refused beyond). */
  async children(code: string, langCode: string): Promise<LocationRow[]> {
    await this.mustExist(code);
    return wholeList('locations', 'locations', (take) => this.store.children(code, langCode, take));
  }

  list(page: PageArgs, filter?: LocationFilter | null): Promise<Connection<LocationRow>> {
    return this.store.list(filter ?? {}, page);
  }

  /** Locations by pairKey(code, langCode), for references and loaders. */
  async byKeys(keys: readonly string[]): Promise<Map<string, LocationRow>> {
    const rows = await this.store.byKeys(keys.map(parsePair));
    return new Map(rows.map((row) => [pairKey(row.code, row.langCode), row]));
  }
}

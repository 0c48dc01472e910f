import type { Connection, PageArgs } from '../../../lib/graph/connection.js';
import type { Clock } from '../../../lib/time.js';
import { created, updated } from '../audit.js';
import { masterdataErrors } from '../errors.js';
import { byPair, checkLanguage, insertOrRevive, parsePair } from '../keys.js';
import { wholeList } from '../paged.js';
import type { LanguageStore } from '../storage.js';
import type { CatalogueStore, DeviceSpecificationFilter, DeviceSpecificationRow, DeviceTypeFilter, DeviceTypeRow } from './storage/catalogue.js';

export type { DeviceSpecificationFilter, DeviceSpecificationRow, DeviceTypeFilter, DeviceTypeRow };

export interface DeviceTypeInput {
  code: string;
  langCode: string;
  name: string;
  description?: string | null;
  isActive: boolean;
}

export interface DeviceSpecificationInput {
  id: string;
  langCode: string;
  name: string;
  brand: string;
  model: string;
  deviceTypeCode: string;
  minDriverVersion?: string | null;
  description?: string | null;
  isActive: boolean;
}

/** What a specification describes, the same in each of its languages' rows but the name. */
const specData = (input: DeviceSpecificationInput) => ({
  name: input.name,
  brand: input.brand,
  model: input.model,
  deviceTypeCode: input.deviceTypeCode,
  minDriverVersion: input.minDriverVersion ?? null,
  description: input.description ?? null,
  isActive: input.isActive,
});

/**
 * The catalogue devices are described by: device types and the
 * specifications (make and model) of a type. A code names the thing in
 * every language; each language is a row. A specification's type, and a
 * device's specification, must exist (in any language).
 */
export class DeviceCatalogueService {
  constructor(
    private readonly store: CatalogueStore,
    private readonly languages: LanguageStore,
    private readonly clock: Clock,
  ) {}

  async createType(by: string, input: DeviceTypeInput): Promise<DeviceTypeRow> {
    await checkLanguage(this.languages, input.langCode);
    const key = { code: input.code, langCode: input.langCode };
    const data = {
      name: input.name,
      description: input.description ?? null,
      isActive: input.isActive,
      ...created(by, this.clock.now()),
      updatedBy: null,
      updatedAt: null,
    };
    return insertOrRevive({
      existing: await this.store.typeState(key),
      duplicate: () => masterdataErrors.deviceTypeInsert(`device type ${input.code} already exists in ${input.langCode}`),
      create: () => this.store.createType(key, data),
      revive: () => this.store.reviveType(key, data),
      read: () => this.store.type(key),
    });
  }

  async updateType(by: string, input: DeviceTypeInput): Promise<DeviceTypeRow> {
    const key = { code: input.code, langCode: input.langCode };
    const count = await this.store.updateType(key, {
      name: input.name,
      description: input.description ?? null,
      isActive: input.isActive,
      ...updated(by, this.clock.now()),
    });
    if (!count) throw masterdataErrors.deviceTypeNotFound(`${input.code} in ${input.langCode}`);
    return this.store.type(key);
  }

  async createSpecification(by: string, input: DeviceSpecificationInput): Promise<DeviceSpecificationRow> {
    await checkLanguage(this.languages, input.langCode);
    await this.requireType(input.deviceTypeCode);
    const key = { id: input.id, langCode: input.langCode };
    const data = { ...specData(input), ...created(by, this.clock.now()), updatedBy: null, updatedAt: null };
    return insertOrRevive({
      existing: await this.store.specificationState(key),
      duplicate: () => masterdataErrors.deviceSpecInsert(`device specification ${input.id} already exists in ${input.langCode}`),
      create: () => this.store.createSpecification(key, data),
      revive: () => this.store.reviveSpecification(key, data),
      read: () => this.store.specification(key),
    });
  }

  async updateSpecification(by: string, input: DeviceSpecificationInput): Promise<DeviceSpecificationRow> {
    const key = { id: input.id, langCode: input.langCode };
    if (!(await this.store.specificationLive(key))) throw masterdataErrors.deviceSpecNotFound(`${input.id} in ${input.langCode}`);
    await this.requireType(input.deviceTypeCode);
    return this.store.updateSpecification(key, { ...specData(input), ...updated(by, this.clock.now()) });
  }

  private async requireType(code: string): Promise<void> {
    if (!(await this.store.typeExists(code))) throw masterdataErrors.deviceTypeNotFound(code);
  }

  /** Whether a specification exists (in any language). */
  specificationExists(id: string): Promise<boolean> {
    return this.store.specificationExists(id);
  }

  /** The ids of the specifications of a device type. */
  specificationIdsOfType(deviceTypeCode: string): Promise<string[]> {
    return this.store.specificationIdsOfType(deviceTypeCode);
  }

  /** Specifications of a language (and type), whole (at most LIST_LIMIT: refused beyond); none is KER-MSD-012, as MOSIP answers. */
  async specifications(langCode: string, deviceTypeCode?: string): Promise<DeviceSpecificationRow[]> {
    const rows = await wholeList('device specifications', 'deviceSpecifications', (take) => this.store.specifications(langCode, deviceTypeCode, take));
    if (!rows.length) throw masterdataErrors.deviceSpecNotFound(deviceTypeCode ? `${deviceTypeCode} in ${langCode}` : `in ${langCode}`);
    return rows;
  }

  listTypes(page: PageArgs, filter?: DeviceTypeFilter | null): Promise<Connection<DeviceTypeRow>> {
    return this.store.typesPage(page, filter);
  }

  listSpecifications(page: PageArgs, filter?: DeviceSpecificationFilter | null): Promise<Connection<DeviceSpecificationRow>> {
    return this.store.specificationsPage(page, filter);
  }

  async typesByKeys(keys: readonly string[]): Promise<Map<string, DeviceTypeRow>> {
    return byPair(await this.store.typesByPairs(keys.map(parsePair)), (row) => [row.code, row.langCode]);
  }

  async specificationsByKeys(keys: readonly string[]): Promise<Map<string, DeviceSpecificationRow>> {
    return byPair(await this.store.specificationsByPairs(keys.map(parsePair)), (row) => [row.id, row.langCode]);
  }
}

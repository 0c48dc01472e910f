import { isIP } from 'node:net';
import { z } from 'zod';
import { identifier, instantText, pageArguments } from '../../../lib/input.js';
import { instantOr, parseInstant } from '../../../lib/time.js';
import { masterdataErrors } from '../errors.js';
import { filterValuesInput, searchInput } from '../search-inputs.js';
import { CENTRE_FILTER_NAMES, olderNames } from '../../../lib/graph/filters.js';

/** Codes of devices, specifications, types and zones: letters, digits, - and _ (a zone's path joins codes with /). */
const code = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, - or _');
const name = (max: number) => identifier(max).min(1);
const langCode = z.string().regex(/^[a-z]{2,3}$/, 'an ISO 639 language code');
const instant = z.string().refine((value) => parseInstant(value) !== undefined, "an ISO 8601 instant (yyyy-MM-dd'T'HH:mm:ss.SSS'Z')");
const ipAddress = z
  .string()
  .max(64)
  .refine((value) => isIP(value) !== 0, 'an IPv4 or IPv6 address');

/** A device's validity as a request writes it: an ISO 8601 instant, UTC when it has no zone. */
export const deviceValidity = (text: string): Date => instantOr(text, () => masterdataErrors.deviceInsert('validityDateTime must be an ISO 8601 instant'));

/** MOSIP's DeviceDto (sizes as kernel-masterdata-service's). */
export const deviceInput = z.object({
  id: code(36),
  name: name(64),
  serialNum: name(64),
  deviceSpecId: code(36),
  macAddress: name(64),
  ipAddress: ipAddress.nullish(),
  langCode,
  isActive: z.boolean(),
  validityDateTime: instantText(instant),
  zoneCode: code(36),
});

export const deviceTypeInput = z.object({
  code: code(36),
  langCode,
  name: name(64),
  description: identifier(128).nullish(),
  isActive: z.boolean(),
});

export const deviceSpecificationInput = z.object({
  id: code(36),
  langCode,
  name: name(64),
  brand: name(32),
  model: name(16),
  deviceTypeCode: code(36),
  minDriverVersion: identifier(16).nullish(),
  description: identifier(256).nullish(),
  isActive: z.boolean(),
});

export const zoneInput = z.object({
  code: code(36),
  langCode,
  name: name(64),
  hierarchyLevel: z.number().int().min(0).max(32),
  hierarchyName: name(64),
  parentZoneCode: code(36).nullish(),
});

const page = pageArguments();
const byLanguage = z.object({ langCode });

/** The arguments of the area's root fields, for GraphQL and REST alike. */
export const devicesSchemas = {
  device: z.object({ id: code(36), langCode }),
  devices: z.object({
    ...page,
    filter: z
      .object({
        langCode: langCode.nullish(),
        zoneCode: code(36).nullish(),
        deviceType: code(36).nullish(),
        deviceSpecId: code(36).nullish(),
        isActive: z.boolean().nullish(),
        name: identifier(64).nullish(),
        nameContains: identifier(64).nullish(),
        regCenterId: identifier(10).nullish(),
        centreId: identifier(10).nullish(),
      })
      .transform((filter) => olderNames(filter, CENTRE_FILTER_NAMES)!)
      .nullish(),
  }),
  devicesByLanguage: byLanguage,
  devicesByType: z.object({ langCode, deviceType: code(36) }),
  searchDevices: z.object({ input: searchInput }),
  deviceFilterValues: z.object({ input: filterValuesInput }),
  deviceTypes: z.object({ ...page, filter: z.object({ langCode: langCode.nullish(), isActive: z.boolean().nullish() }).nullish() }),
  deviceSpecifications: z.object({
    ...page,
    filter: z.object({ langCode: langCode.nullish(), deviceTypeCode: code(36).nullish(), isActive: z.boolean().nullish() }).nullish(),
  }),
  deviceSpecificationsByLanguage: byLanguage,
  deviceSpecificationsByType: z.object({ langCode, deviceTypeCode: code(36) }),
  zones: z.object({
    ...page,
    filter: z.object({ langCode: langCode.nullish(), parentZoneCode: code(36).nullish(), hierarchyLevel: z.number().int().nullish() }).nullish(),
  }),
  zoneHierarchy: byLanguage,
  leafZones: byLanguage,
  createDevice: z.object({ input: deviceInput }),
  updateDevice: z.object({ input: deviceInput }),
  decommissionDevice: z.object({ id: code(36) }),
  deleteDevice: z.object({ id: code(36) }),
  createDeviceType: z.object({ input: deviceTypeInput }),
  updateDeviceType: z.object({ input: deviceTypeInput }),
  createDeviceSpecification: z.object({ input: deviceSpecificationInput }),
  updateDeviceSpecification: z.object({ input: deviceSpecificationInput }),
  createZone: z.object({ input: zoneInput }),
  mapZoneUser: z.object({ userId: identifier(64).min(1), zoneCode: code(36) }),
  unmapZoneUser: z.object({ userId: identifier(64).min(1), zoneCode: code(36) }),
};

/**
 * A missing or malformed argument: MOSIP's "invalid request input"
 * (KER-MSD-999, RequestErrorCode.REQUEST_DATA_NOT_VALID), but a search or
 * filter-values body gets the search codes (KER-MSD-317).
 */
export const devicesCodeFor = (field: string, _missing: boolean, rootField: string): string =>
  (rootField === 'searchDevices' || rootField === 'deviceFilterValues') && field !== 'request' ? 'KER-MSD-317' : 'KER-MSD-999';

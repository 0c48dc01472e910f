import type { Request } from 'express';
import { z } from 'zod';
import * as ops from '../../generated/graphql/masterdata.operations.js';
import type { DevicesRecordFragment, DevicesSpecificationRecordFragment, DevicesZoneRecordFragment } from '../../generated/graphql/masterdata.operations.js';
import {
  deviceInput,
  devicesCodeFor,
  deviceSpecificationInput,
  deviceTypeInput,
  devicesSchemas,
  zoneInput,
} from '../../subgraphs/masterdata/devices/inputs.js';
import { filterValuesInput, searchInput } from '../../subgraphs/masterdata/search-inputs.js';
import { operation } from '../operations.js';
import { defineRoute, optionalTimestamp, pathParam, type RestRoute } from '../route.js';

const PREFIX = '/v1/masterdata';
const INTERNAL = 'KER-MSD-500';
const text = z.string().nullable();
/** The area's code for a bad field of the root field a route runs. */
const codeOf = (rootField: keyof typeof devicesSchemas) => (field: string, missing: boolean) => devicesCodeFor(field, missing, rootField);
const langOf = (req: Request) => pathParam(req, 'languagecode');

/** MOSIP's audit fields, by their wire names. */
const audit = {
  createdBy: text,
  createdDateTime: z.string(),
  updatedBy: text,
  updatedDateTime: text,
  isDeleted: z.boolean(),
  deletedDateTime: text,
};

// --- devices ---

const deviceRecord = z.object({
  id: z.string(),
  name: z.string(),
  serialNum: z.string(),
  deviceSpecId: z.string(),
  macAddress: z.string(),
  ipAddress: text,
  langCode: z.string(),
  isActive: z.boolean(),
  validityDateTime: text,
  zoneCode: z.string(),
  regCenterId: text,
  ...audit,
});
const toDevice = ({
  createdBy,
  createdAt,
  updatedBy,
  updatedAt,
  deletedAt,
  validityDateTime,
  ...row
}: DevicesRecordFragment): z.input<typeof deviceRecord> => ({
  ...row,
  validityDateTime: optionalTimestamp(validityDateTime),
  createdBy: createdBy?.userId ?? null,
  createdDateTime: optionalTimestamp(createdAt) ?? '',
  updatedBy: updatedBy?.userId ?? null,
  updatedDateTime: optionalTimestamp(updatedAt),
  deletedDateTime: optionalTimestamp(deletedAt),
});
const devices = z.object({ devices: z.array(deviceRecord) });
const idOnly = z.object({ id: z.string() });

// --- device types and specifications (MOSIP's wire name minDriverversion; the spec's minDriverVersion is accepted too) ---

const codeAndLanguage = z.object({ code: z.string(), langCode: z.string() });
const idAndLanguage = z.object({ id: z.string(), langCode: z.string() });
const specificationRequest = deviceSpecificationInput.extend({ minDriverversion: deviceSpecificationInput.shape.minDriverVersion });
const specificationVariables = ({ minDriverversion, minDriverVersion, ...input }: z.infer<typeof specificationRequest>) => ({
  input: { ...input, minDriverVersion: minDriverversion ?? minDriverVersion },
});
const specificationRecord = z.object({
  id: z.string(),
  langCode: z.string(),
  name: z.string(),
  brand: z.string(),
  model: z.string(),
  deviceTypeCode: z.string(),
  minDriverversion: text,
  description: text,
  isActive: z.boolean(),
});
const toSpecification = ({ minDriverVersion, ...row }: DevicesSpecificationRecordFragment): z.input<typeof specificationRecord> => ({
  ...row,
  minDriverversion: minDriverVersion,
});
const specifications = z.object({ devicespecifications: z.array(specificationRecord) });

// --- zones ---

const zoneRecord = z.object({
  code: z.string(),
  langCode: z.string(),
  name: z.string(),
  hierarchyLevel: z.number(),
  hierarchyName: z.string(),
  parentZoneCode: text,
  isActive: z.boolean(),
  createdBy: text,
  createdDateTime: z.string(),
});
const toZone = ({ createdBy, createdAt, ...row }: DevicesZoneRecordFragment): z.input<typeof zoneRecord> => ({
  ...row,
  createdBy: createdBy?.userId ?? null,
  createdDateTime: optionalTimestamp(createdAt) ?? '',
});
const zoneUser = z.object({ userId: z.string(), zoneCode: z.string() });

export const devicesRoutes: RestRoute[] = [
  defineRoute({
    method: 'post',
    path: `${PREFIX}/devices`,
    summary: "Create a device in one of the caller's zones, or its row in another language",
    id: 'platform.masterdata.device.create',
    input: { from: 'envelope', schema: deviceInput },
    operation: operation(ops.DevicesCreateDeviceDocument),
    variables: (input) => ({ input }),
    response: deviceRecord,
    result: (data) => toDevice(data.createDevice),
    codeFor: codeOf('createDevice'),
    internalErrorCode: INTERNAL,
  }),
  defineRoute({
    method: 'put',
    path: `${PREFIX}/devices`,
    summary: "Update a device of the caller's zones",
    id: 'platform.masterdata.device.update',
    input: { from: 'envelope', schema: deviceInput },
    operation: operation(ops.DevicesUpdateDeviceDocument),
    variables: (input) => ({ input }),
    response: deviceRecord,
    result: (data) => toDevice(data.updateDevice),
    codeFor: codeOf('updateDevice'),
    internalErrorCode: INTERNAL,
  }),
  defineRoute({
    method: 'get',
    path: `${PREFIX}/devices/{languagecode}`,
    summary: "The devices of a language in the caller's zones",
    id: 'platform.masterdata.device.read',
    input: { from: 'none' },
    operation: operation(ops.DevicesOfLanguageDocument),
    variables: (_, req) => ({ langCode: langOf(req) }),
    response: devices,
    result: (data) => ({ devices: data.devicesByLanguage.map(toDevice) }),
    codeFor: codeOf('devicesByLanguage'),
    internalErrorCode: INTERNAL,
  }),
  defineRoute({
    method: 'get',
    path: `${PREFIX}/devices/{languagecode}/{deviceType}`,
    summary: "The devices of a language and device type in the caller's zones",
    id: 'platform.masterdata.device.read',
    input: { from: 'none' },
    operation: operation(ops.DevicesOfTypeDocument),
    variables: (_, req) => ({ langCode: langOf(req), deviceType: pathParam(req, 'deviceType') }),
    response: devices,
    result: (data) => ({ devices: data.devicesByType.map(toDevice) }),
    codeFor: codeOf('devicesByType'),
    internalErrorCode: INTERNAL,
  }),
  defineRoute({
    method: 'put',
    path: `${PREFIX}/devices/decommission/{id}`,
    summary: 'Decommission a device (every language), unless it is placed at a registration centre',
    id: 'platform.masterdata.device.decommission',
    input: { from: 'none' },
    operation: operation(ops.DevicesDecommissionDocument),
    variables: (_, req) => ({ id: pathParam(req, 'id') }),
    response: idOnly,
    result: (data) => ({ id: data.decommissionDevice }),
    codeFor: codeOf('decommissionDevice'),
    internalErrorCode: INTERNAL,
  }),
  defineRoute({
    method: 'delete',
    path: `${PREFIX}/devices/{id}`,
    summary: 'Delete a device (every language), unless it is placed at a registration centre',
    id: 'platform.masterdata.device.delete',
    input: { from: 'none' },
    operation: operation(ops.DevicesDeleteDocument),
    variables: (_, req) => ({ id: pathParam(req, 'id') }),
    response: idOnly,
    result: (data) => ({ id: data.deleteDevice }),
    codeFor: codeOf('deleteDevice'),
    internalErrorCode: INTERNAL,
  }),
  defineRoute({
    method: 'post',
    path: `${PREFIX}/devices/search`,
    summary: "Search the devices of the caller's zones; columns name, serialNum, macAddress, deviceSpecId, zoneCode, isActive",
    id: 'platform.masterdata.device.search',
    input: { from: 'envelope', schema: searchInput },
    operation: operation(ops.DevicesSearchDocument),
    variables: (input) => ({ input }),
    response: z.object({ data: z.array(deviceRecord), fromRecord: z.number(), toRecord: z.number(), totalRecord: z.number() }),
    result: (data) => ({ ...data.searchDevices, data: data.searchDevices.data.map(toDevice) }),
    codeFor: codeOf('searchDevices'),
    internalErrorCode: INTERNAL,
  }),
  defineRoute({
    method: 'post',
    path: `${PREFIX}/devices/filtervalues`,
    summary: "The values of device columns in the caller's zones",
    id: 'platform.masterdata.device.filtervalues',
    input: { from: 'envelope', schema: filterValuesInput },
    operation: operation(ops.DevicesFilterValuesDocument),
    variables: (input) => ({ input }),
    response: z.object({ filters: z.array(z.object({ fieldID: z.string(), fieldValue: z.string(), fieldCode: text })) }),
    result: (data) => data.deviceFilterValues,
    codeFor: codeOf('deviceFilterValues'),
    internalErrorCode: INTERNAL,
  }),
  defineRoute({
    method: 'post',
    path: `${PREFIX}/devicetypes`,
    summary: 'Create a device type, or its row in another language',
    id: 'platform.masterdata.devicetype.create',
    input: { from: 'envelope', schema: deviceTypeInput },
    operation: operation(ops.DevicesCreateTypeDocument),
    variables: (input) => ({ input }),
    response: codeAndLanguage,
    result: (data) => data.createDeviceType,
    codeFor: codeOf('createDeviceType'),
    internalErrorCode: INTERNAL,
  }),
  defineRoute({
    method: 'put',
    path: `${PREFIX}/devicetypes`,
    summary: 'Update a device type in a language',
    id: 'platform.masterdata.devicetype.update',
    input: { from: 'envelope', schema: deviceTypeInput },
    operation: operation(ops.DevicesUpdateTypeDocument),
    variables: (input) => ({ input }),
    response: codeAndLanguage,
    result: (data) => data.updateDeviceType,
    codeFor: codeOf('updateDeviceType'),
    internalErrorCode: INTERNAL,
  }),
  defineRoute({
    method: 'post',
    path: `${PREFIX}/devicespecifications`,
    summary: 'Create a device specification of an existing device type, or its row in another language',
    id: 'platform.masterdata.devicespecification.create',
    input: { from: 'envelope', schema: specificationRequest },
    operation: operation(ops.DevicesCreateSpecificationDocument),
    variables: specificationVariables,
    response: idAndLanguage,
    result: (data) => data.createDeviceSpecification,
    codeFor: codeOf('createDeviceSpecification'),
    internalErrorCode: INTERNAL,
  }),
  defineRoute({
    method: 'put',
    path: `${PREFIX}/devicespecifications`,
    summary: 'Update a device specification in a language',
    id: 'platform.masterdata.devicespecification.update',
    input: { from: 'envelope', schema: specificationRequest },
    operation: operation(ops.DevicesUpdateSpecificationDocument),
    variables: specificationVariables,
    response: idAndLanguage,
    result: (data) => data.updateDeviceSpecification,
    codeFor: codeOf('updateDeviceSpecification'),
    internalErrorCode: INTERNAL,
  }),
  defineRoute({
    method: 'get',
    path: `${PREFIX}/devicespecifications/{langcode}`,
    summary: 'The device specifications of a language',
    id: 'platform.masterdata.devicespecification.read',
    input: { from: 'none' },
    operation: operation(ops.DevicesSpecificationsOfLanguageDocument),
    variables: (_, req) => ({ langCode: pathParam(req, 'langcode') }),
    response: specifications,
    result: (data) => ({ devicespecifications: data.deviceSpecificationsByLanguage.map(toSpecification) }),
    codeFor: codeOf('deviceSpecificationsByLanguage'),
    internalErrorCode: INTERNAL,
  }),
  defineRoute({
    method: 'get',
    path: `${PREFIX}/devicespecifications/{langcode}/{devicetypecode}`,
    summary: 'The device specifications of a language and device type',
    id: 'platform.masterdata.devicespecification.read',
    input: { from: 'none' },
    operation: operation(ops.DevicesSpecificationsOfTypeDocument),
    variables: (_, req) => ({ langCode: pathParam(req, 'langcode'), deviceTypeCode: pathParam(req, 'devicetypecode') }),
    response: specifications,
    result: (data) => ({ devicespecifications: data.deviceSpecificationsByType.map(toSpecification) }),
    codeFor: codeOf('deviceSpecificationsByType'),
    internalErrorCode: INTERNAL,
  }),
  defineRoute({
    method: 'get',
    path: `${PREFIX}/zones/hierarchy/{langCode}`,
    summary: "The caller's zones and those below them, from the top",
    id: 'platform.masterdata.zone.hierarchy',
    input: { from: 'none' },
    operation: operation(ops.DevicesZoneHierarchyDocument),
    variables: (_, req) => ({ langCode: pathParam(req, 'langCode') }),
    response: z.array(zoneRecord),
    result: (data) => data.zoneHierarchy.map(toZone),
    codeFor: codeOf('zoneHierarchy'),
    internalErrorCode: INTERNAL,
  }),
  defineRoute({
    method: 'get',
    path: `${PREFIX}/zones/leafs/{langCode}`,
    summary: "The caller's zones that no zone lies below",
    id: 'platform.masterdata.zone.leafs',
    input: { from: 'none' },
    operation: operation(ops.DevicesLeafZonesDocument),
    variables: (_, req) => ({ langCode: pathParam(req, 'langCode') }),
    response: z.array(zoneRecord),
    result: (data) => data.leafZones.map(toZone),
    codeFor: codeOf('leafZones'),
    internalErrorCode: INTERNAL,
  }),
  defineRoute({
    method: 'post',
    path: `${PREFIX}/zones`,
    summary: 'Create a zone below one the caller administers (a root zone: GLOBAL_ADMIN)',
    id: 'platform.masterdata.zone.create',
    input: { from: 'envelope', schema: zoneInput },
    operation: operation(ops.DevicesCreateZoneDocument),
    variables: (input) => ({ input }),
    response: zoneRecord,
    result: (data) => toZone(data.createZone),
    codeFor: codeOf('createZone'),
    internalErrorCode: INTERNAL,
  }),
  defineRoute({
    method: 'post',
    path: `${PREFIX}/zoneuser`,
    summary: 'Map an admin to a zone they will administer (GLOBAL_ADMIN)',
    id: 'platform.masterdata.zoneuser.create',
    input: { from: 'envelope', schema: devicesSchemas.mapZoneUser },
    operation: operation(ops.DevicesMapZoneUserDocument),
    variables: (input) => input,
    response: zoneUser.extend({ isActive: z.boolean(), isDeleted: z.boolean(), createdBy: text, createdDateTime: z.string() }),
    result: ({ mapZoneUser: { createdBy, createdAt, ...row } }) => ({
      ...row,
      createdBy: createdBy?.userId ?? null,
      createdDateTime: optionalTimestamp(createdAt) ?? '',
    }),
    codeFor: codeOf('mapZoneUser'),
    internalErrorCode: INTERNAL,
  }),
  defineRoute({
    method: 'delete',
    path: `${PREFIX}/zoneuser/{userid}/{zonecode}`,
    summary: "End an admin's mapping to a zone (GLOBAL_ADMIN)",
    id: 'platform.masterdata.zoneuser.delete',
    input: { from: 'none' },
    operation: operation(ops.DevicesUnmapZoneUserDocument),
    variables: (_, req) => ({ userId: pathParam(req, 'userid'), zoneCode: pathParam(req, 'zonecode') }),
    response: zoneUser,
    result: (data) => data.unmapZoneUser,
    codeFor: codeOf('unmapZoneUser'),
    internalErrorCode: INTERNAL,
  }),
];

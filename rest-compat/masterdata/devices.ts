import type { Request } from 'express';
import { z } from 'zod';
import * as ops from '../../generated/graphql/masterdata.operations.js';
import type { DevicesRecordFragment, DevicesSpecificationRecordFragment, DevicesZoneRecordFragment } from '../../generated/graphql/masterdata.operations.js';
import { deviceInput, deviceSpecificationInput, deviceTypeInput, devicesSchemas, zoneInput } from '../../subgraphs/masterdata/devices/inputs.js';
import { filterValuesInput, searchInput } from '../../subgraphs/masterdata/search-inputs.js';
import { auditShape, createdFields, createdShape, withAudit } from '../audit.js';
import { instantFromWire, optionalTimestamp, pathParam, type RestRoute } from '../route.js';
import { deviceValidity } from '../../subgraphs/masterdata/devices/service.js';
import { routeFactory } from '../route-factory.js';
import { mapRows, MASTERDATA, searchPageShape } from './shared.js';

const route = routeFactory({ ...MASTERDATA, idPrefix: 'platform.masterdata.' });
const text = z.string().nullable();
const langOf = (req: Request) => pathParam(req, 'languagecode');

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
  ...auditShape,
});
const toDevice = ({ validityDateTime, ...row }: DevicesRecordFragment): z.input<typeof deviceRecord> =>
  withAudit(row, { validityDateTime: optionalTimestamp(validityDateTime) });
const devices = z.object({ devices: z.array(deviceRecord) });
/** The request's validity (an instant the input rules checked: KER-MSD-999 otherwise) as the DateTime the operation takes. */
const deviceVariables = (input: z.infer<typeof deviceInput>) => ({
  input: { ...input, validityDateTime: instantFromWire(input.validityDateTime, deviceValidity) },
});
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
  ...createdShape,
});
const toZone = ({ createdBy, createdAt, ...row }: DevicesZoneRecordFragment): z.input<typeof zoneRecord> => ({
  ...row,
  ...createdFields({ createdBy, createdAt }),
});
const zoneUser = z.object({ userId: z.string(), zoneCode: z.string() });

export const devicesRoutes: RestRoute[] = [
  route({
    method: 'post',
    path: '/devices',
    summary: "Create a device in one of the caller's zones, or its row in another language",
    idSuffix: 'device.create',
    input: { from: 'envelope', schema: deviceInput },
    operation: ops.DevicesCreateDeviceDocument,
    variables: deviceVariables,
    response: deviceRecord,
    result: (data) => toDevice(data.createDevice),
  }),
  route({
    method: 'put',
    path: '/devices',
    summary: "Update a device of the caller's zones",
    idSuffix: 'device.update',
    input: { from: 'envelope', schema: deviceInput },
    operation: ops.DevicesUpdateDeviceDocument,
    variables: deviceVariables,
    response: deviceRecord,
    result: (data) => toDevice(data.updateDevice),
  }),
  route({
    method: 'get',
    path: '/devices/{languagecode}',
    summary: "The devices of a language in the caller's zones",
    idSuffix: 'device.read',
    input: { from: 'none' },
    operation: ops.DevicesOfLanguageDocument,
    variables: (_, req) => ({ langCode: langOf(req) }),
    response: devices,
    result: (data) => ({ devices: data.devicesByLanguage.map(toDevice) }),
  }),
  route({
    method: 'get',
    path: '/devices/{languagecode}/{deviceType}',
    summary: "The devices of a language and device type in the caller's zones",
    idSuffix: 'device.read',
    input: { from: 'none' },
    operation: ops.DevicesOfTypeDocument,
    variables: (_, req) => ({ langCode: langOf(req), deviceType: pathParam(req, 'deviceType') }),
    response: devices,
    result: (data) => ({ devices: data.devicesByType.map(toDevice) }),
  }),
  route({
    method: 'put',
    path: '/devices/decommission/{id}',
    summary: 'Decommission a device (every language), unless it is placed at a registration centre',
    idSuffix: 'device.decommission',
    input: { from: 'none' },
    operation: ops.DevicesDecommissionDocument,
    variables: (_, req) => ({ id: pathParam(req, 'id') }),
    response: idOnly,
    result: (data) => ({ id: data.decommissionDevice }),
  }),
  route({
    method: 'delete',
    path: '/devices/{id}',
    summary: 'Delete a device (every language), unless it is placed at a registration centre',
    idSuffix: 'device.delete',
    input: { from: 'none' },
    operation: ops.DevicesDeleteDocument,
    variables: (_, req) => ({ id: pathParam(req, 'id') }),
    response: idOnly,
    result: (data) => ({ id: data.deleteDevice }),
  }),
  route({
    method: 'post',
    path: '/devices/search',
    summary: "Search the devices of the caller's zones; columns name, serialNum, macAddress, deviceSpecId, zoneCode, isActive",
    idSuffix: 'device.search',
    input: { from: 'envelope', schema: searchInput },
    operation: ops.DevicesSearchDocument,
    variables: (input) => ({ input }),
    response: searchPageShape(deviceRecord),
    result: (data) => mapRows(data.searchDevices, toDevice),
  }),
  route({
    method: 'post',
    path: '/devices/filtervalues',
    summary: "The values of device columns in the caller's zones",
    idSuffix: 'device.filtervalues',
    input: { from: 'envelope', schema: filterValuesInput },
    operation: ops.DevicesFilterValuesDocument,
    variables: (input) => ({ input }),
    response: z.object({ filters: z.array(z.object({ fieldID: z.string(), fieldValue: z.string(), fieldCode: text })) }),
    result: (data) => data.deviceFilterValues,
  }),
  route({
    method: 'post',
    path: '/devicetypes',
    summary: 'Create a device type, or its row in another language',
    idSuffix: 'devicetype.create',
    input: { from: 'envelope', schema: deviceTypeInput },
    operation: ops.DevicesCreateTypeDocument,
    variables: (input) => ({ input }),
    response: codeAndLanguage,
    result: (data) => data.createDeviceType,
  }),
  route({
    method: 'put',
    path: '/devicetypes',
    summary: 'Update a device type in a language',
    idSuffix: 'devicetype.update',
    input: { from: 'envelope', schema: deviceTypeInput },
    operation: ops.DevicesUpdateTypeDocument,
    variables: (input) => ({ input }),
    response: codeAndLanguage,
    result: (data) => data.updateDeviceType,
  }),
  route({
    method: 'post',
    path: '/devicespecifications',
    summary: 'Create a device specification of an existing device type, or its row in another language',
    idSuffix: 'devicespecification.create',
    input: { from: 'envelope', schema: specificationRequest },
    operation: ops.DevicesCreateSpecificationDocument,
    variables: specificationVariables,
    response: idAndLanguage,
    result: (data) => data.createDeviceSpecification,
  }),
  route({
    method: 'put',
    path: '/devicespecifications',
    summary: 'Update a device specification in a language',
    idSuffix: 'devicespecification.update',
    input: { from: 'envelope', schema: specificationRequest },
    operation: ops.DevicesUpdateSpecificationDocument,
    variables: specificationVariables,
    response: idAndLanguage,
    result: (data) => data.updateDeviceSpecification,
  }),
  route({
    method: 'get',
    path: '/devicespecifications/{langcode}',
    summary: 'The device specifications of a language',
    idSuffix: 'devicespecification.read',
    input: { from: 'none' },
    operation: ops.DevicesSpecificationsOfLanguageDocument,
    variables: (_, req) => ({ langCode: pathParam(req, 'langcode') }),
    response: specifications,
    result: (data) => ({ devicespecifications: data.deviceSpecificationsByLanguage.map(toSpecification) }),
  }),
  route({
    method: 'get',
    path: '/devicespecifications/{langcode}/{devicetypecode}',
    summary: 'The device specifications of a language and device type',
    idSuffix: 'devicespecification.read',
    input: { from: 'none' },
    operation: ops.DevicesSpecificationsOfTypeDocument,
    variables: (_, req) => ({ langCode: pathParam(req, 'langcode'), deviceTypeCode: pathParam(req, 'devicetypecode') }),
    response: specifications,
    result: (data) => ({ devicespecifications: data.deviceSpecificationsByType.map(toSpecification) }),
  }),
  route({
    method: 'get',
    path: '/zones/hierarchy/{langCode}',
    summary: "The caller's zones and those below them, from the top",
    idSuffix: 'zone.hierarchy',
    input: { from: 'none' },
    operation: ops.DevicesZoneHierarchyDocument,
    variables: (_, req) => ({ langCode: pathParam(req, 'langCode') }),
    response: z.array(zoneRecord),
    result: (data) => data.zoneHierarchy.map(toZone),
  }),
  route({
    method: 'get',
    path: '/zones/leafs/{langCode}',
    summary: "The caller's zones that no zone lies below",
    idSuffix: 'zone.leafs',
    input: { from: 'none' },
    operation: ops.DevicesLeafZonesDocument,
    variables: (_, req) => ({ langCode: pathParam(req, 'langCode') }),
    response: z.array(zoneRecord),
    result: (data) => data.leafZones.map(toZone),
  }),
  route({
    method: 'post',
    path: '/zones',
    summary: 'Create a zone below one the caller administers (a root zone: GLOBAL_ADMIN)',
    idSuffix: 'zone.create',
    input: { from: 'envelope', schema: zoneInput },
    operation: ops.DevicesCreateZoneDocument,
    variables: (input) => ({ input }),
    response: zoneRecord,
    result: (data) => toZone(data.createZone),
  }),
  route({
    method: 'post',
    path: '/zoneuser',
    summary: 'Map an admin to a zone they will administer (GLOBAL_ADMIN)',
    idSuffix: 'zoneuser.create',
    input: { from: 'envelope', schema: devicesSchemas.mapZoneUser },
    operation: ops.DevicesMapZoneUserDocument,
    variables: (input) => input,
    response: zoneUser.extend({ isActive: z.boolean(), isDeleted: z.boolean(), ...createdShape }),
    result: ({ mapZoneUser: { createdBy, createdAt, ...row } }) => ({ ...row, ...createdFields({ createdBy, createdAt }) }),
  }),
  route({
    method: 'delete',
    path: '/zoneuser/{userid}/{zonecode}',
    summary: "End an admin's mapping to a zone (GLOBAL_ADMIN)",
    idSuffix: 'zoneuser.delete',
    input: { from: 'none' },
    operation: ops.DevicesUnmapZoneUserDocument,
    variables: (_, req) => ({ userId: pathParam(req, 'userid'), zoneCode: pathParam(req, 'zonecode') }),
    response: zoneUser,
    result: (data) => data.unmapZoneUser,
  }),
];

import type { Request } from 'express';
import { z } from 'zod';
import * as ops from '../../generated/graphql/masterdata.operations.js';
import { deviceInput, devicesSchemas, deviceValidity } from '../../subgraphs/masterdata/devices/inputs.js';
import { auditShape, withAudit } from '../audit.js';
import { instantFromWire, optionalTimestamp, pathParam, type RestRoute } from '../route.js';
import { mapRows, route, searchPageShape } from './shared.js';

const text = z.string().nullable();
const langOf = (req: Request) => pathParam(req, 'languagecode');

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
const toDevice = ({ validityDateTime, ...row }: ops.DevicesRecordFragment): z.input<typeof deviceRecord> =>
  withAudit(row, { validityDateTime: optionalTimestamp(validityDateTime) });
const devices = z.object({ devices: z.array(deviceRecord) });
/** The request's validity (an instant the input rules checked: KER-MSD-999 otherwise) as the DateTime the operation takes. */
const deviceVariables = (input: z.infer<typeof deviceInput>) => ({
  input: { ...input, validityDateTime: instantFromWire(input.validityDateTime, deviceValidity) },
});
const idOnly = z.object({ id: z.string() });

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
    input: { from: 'envelope', schema: devicesSchemas.searchDevices.shape.input },
    operation: ops.DevicesSearchDocument,
    response: searchPageShape(deviceRecord),
    result: (data) => mapRows(data.searchDevices, toDevice),
  }),
  route({
    method: 'post',
    path: '/devices/filtervalues',
    summary: "The values of device columns in the caller's zones",
    idSuffix: 'device.filtervalues',
    input: { from: 'envelope', schema: devicesSchemas.deviceFilterValues.shape.input },
    operation: ops.DevicesFilterValuesDocument,
    response: z.object({ filters: z.array(z.object({ fieldID: z.string(), fieldValue: z.string(), fieldCode: text })) }),
  }),
];

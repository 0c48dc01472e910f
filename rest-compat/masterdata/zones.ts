import { z } from 'zod';
import * as ops from '../../generated/graphql/masterdata.operations.js';
import { devicesSchemas, zoneInput } from '../../subgraphs/masterdata/devices/inputs.js';
import { createdFields, createdShape } from '../audit.js';
import { pathParam, type RestRoute } from '../route.js';
import { route } from './shared.js';

const zoneRecord = z.object({
  code: z.string(),
  langCode: z.string(),
  name: z.string(),
  hierarchyLevel: z.number(),
  hierarchyName: z.string(),
  parentZoneCode: z.string().nullable(),
  isActive: z.boolean(),
  ...createdShape,
});
const toZone = ({ createdBy, createdAt, ...row }: ops.DevicesZoneRecordFragment): z.input<typeof zoneRecord> => ({
  ...row,
  ...createdFields({ createdBy, createdAt }),
});
const zoneUser = z.object({ userId: z.string(), zoneCode: z.string() });

export const zonesRoutes: RestRoute[] = [
  route({
    method: 'get',
    path: '/zones/hierarchy/{langCode}',
    summary: "The caller's zones and those below them, from the top",
    idSuffix: 'zone.hierarchy',
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
    response: zoneUser.extend({ isActive: z.boolean(), isDeleted: z.boolean(), ...createdShape }),
    result: ({ mapZoneUser: { createdBy, createdAt, ...row } }) => ({ ...row, ...createdFields({ createdBy, createdAt }) }),
  }),
  route({
    method: 'delete',
    path: '/zoneuser/{userid}/{zonecode}',
    summary: "End an admin's mapping to a zone (GLOBAL_ADMIN)",
    idSuffix: 'zoneuser.delete',
    operation: ops.DevicesUnmapZoneUserDocument,
    variables: (_, req) => ({ userId: pathParam(req, 'userid'), zoneCode: pathParam(req, 'zonecode') }),
    response: zoneUser,
  }),
];

import type { Request } from 'express';
import { z } from 'zod';
import * as ops from '../../generated/graphql/masterdata.operations.js';
import type { CentresCentreRecordFragment, CentresMachineRecordFragment, CentresUserRecordFragment } from '../../generated/graphql/masterdata.operations.js';
import { centreInput, machineInput, weekDay } from '../../subgraphs/masterdata/centres/inputs.js';
import { WEEK_DAYS } from '../../subgraphs/masterdata/centres/service.js';
import { auditShape, createdFields, createdShape, withAudit } from '../audit.js';
import { found, instantFromWire, optionalTimestamp, pathParam, type RestRoute } from '../route.js';
import { machineValidity } from '../../subgraphs/masterdata/centres/machines.js';
import { masterdataErrors } from '../../subgraphs/masterdata/errors.js';
import { routeFactory } from '../route-factory.js';
import { MASTERDATA } from './shared.js';

const route = routeFactory({ ...MASTERDATA, idPrefix: 'platform.masterdata.' });
const text = z.string().nullable();

// --- centres ---

/** MOSIP's working days of a request: a map of day code (any case) to working or not. */
const workingNonWorkingDays = z
  .record(z.string(), z.boolean())
  .refine((days) => Object.keys(days).every((day) => weekDay.safeParse(day.toUpperCase()).success), { message: `days are ${WEEK_DAYS.join(', ')}` })
  .nullish();
const centreRequest = centreInput.omit({ workingDays: true }).extend({ workingNonWorkingDays });
type CentreRequest = z.infer<typeof centreRequest>;
const centreVariables = ({ workingNonWorkingDays: days, ...input }: CentreRequest) => ({
  input: { ...input, workingDays: days ? Object.entries(days).map(([day, isWorking]) => ({ dayCode: weekDay.parse(day.toUpperCase()), isWorking })) : null },
});

const centreRecord = z.object({
  id: z.string(),
  langCode: z.string(),
  name: z.string(),
  centerTypeCode: z.string(),
  addressLine1: text,
  addressLine2: text,
  addressLine3: text,
  latitude: text,
  longitude: text,
  locationCode: z.string(),
  holidayLocationCode: z.string(),
  contactPhone: text,
  contactPerson: text,
  numberOfKiosks: z.number(),
  workingHours: text,
  perKioskProcessTime: text,
  centerStartTime: text,
  centerEndTime: text,
  lunchStartTime: text,
  lunchEndTime: text,
  timeZone: text,
  zoneCode: z.string(),
  isActive: z.boolean(),
  workingNonWorkingDays: z.record(z.string(), z.boolean()),
  ...auditShape,
});
const toCentre = ({ workingDays, ...row }: CentresCentreRecordFragment): z.input<typeof centreRecord> =>
  withAudit(row, { workingNonWorkingDays: Object.fromEntries(workingDays.map((day) => [day.dayCode, day.isWorking])) });
const centres = z.object({ registrationCenters: z.array(centreRecord) });

const workingDays = z.object({
  workingdays: z.array(z.object({ dayCode: z.string(), name: z.string(), order: z.number(), languageCode: z.string(), isWorking: z.boolean() })),
});
const workingDaysRoute = (path: string, idParam: string, langParam: string) =>
  route({
    method: 'get',
    path,
    summary: "A registration centre's working and non-working days",
    idSuffix: 'workingdays.get',
    input: { from: 'none' },
    operation: ops.CentresWorkingDaysDocument,
    variables: (_: unknown, req: Request) => ({ id: pathParam(req, idParam), langCode: pathParam(req, langParam) }),
    response: workingDays,
    result: (data, { res }) => ({
      workingdays: data.registrationCentreWorkingDays.map((day) => ({ ...day, languageCode: pathParam(res.req, langParam) })),
    }),
  });

// --- machines ---

const machineRecord = z.object({
  id: z.string(),
  langCode: z.string(),
  name: z.string(),
  serialNum: text,
  macAddress: text,
  ipAddress: text,
  machineSpecId: text,
  regCenterId: text,
  zoneCode: z.string(),
  validityDateTime: text,
  isActive: z.boolean(),
  ...auditShape,
});
const toMachine = ({ validityDateTime, ...row }: CentresMachineRecordFragment): z.input<typeof machineRecord> =>
  withAudit(row, { validityDateTime: optionalTimestamp(validityDateTime) });
const machines = z.object({ machines: z.array(machineRecord) });
/** The request's validity as the DateTime the operation takes: the service's own check first (KER-MSD-043), as MOSIP parses it with the request. */
const machineVariables = (input: z.infer<typeof machineInput>) => ({
  // An empty validity is none, as the service reads it.
  input: { ...input, validityDateTime: input.validityDateTime ? instantFromWire(input.validityDateTime, machineValidity) : null },
});

// --- centre users ---

/** MOSIP's UserDetailsDto names the user `id`; `userId` is accepted too. */
const mappingRequest = z
  .object({ userId: z.string().max(64).nullish(), id: z.string().max(64).nullish(), regCenterId: z.string().max(10) })
  .refine((value) => Boolean(value.userId ?? value.id), { message: 'userId is required', path: ['userId'] });
const mappingRecord = z.object({ userId: z.string(), regCenterId: z.string(), isActive: z.boolean(), ...createdShape });
const toMapping = (row: CentresUserRecordFragment): z.input<typeof mappingRecord> => ({
  userId: row.user.userId,
  regCenterId: row.regCenterId,
  isActive: row.isActive,
  ...createdFields(row),
});

const idAndLanguage = (req: Request) => ({ id: pathParam(req, 'id'), langCode: pathParam(req, 'langcode') });
const deleted = z.object({ id: z.string() });

export const centresRoutes: RestRoute[] = [
  route({
    method: 'post',
    path: '/registrationcenters',
    summary: 'Create a registration centre, or its row in another language',
    idSuffix: 'registrationcenter.create',
    input: { from: 'envelope', schema: centreRequest },
    operation: ops.CentresCreateCentreDocument,
    variables: centreVariables,
    response: centreRecord,
    result: (data) => toCentre(data.createRegistrationCentre),
  }),
  route({
    method: 'put',
    path: '/registrationcenters',
    summary: "Update a registration centre's row in a language",
    idSuffix: 'registrationcenter.update',
    input: { from: 'envelope', schema: centreRequest },
    operation: ops.CentresUpdateCentreDocument,
    variables: centreVariables,
    response: centreRecord,
    result: (data) => toCentre(data.updateRegistrationCentre),
  }),
  route({
    method: 'get',
    path: '/registrationcenters/{id}/{langcode}',
    summary: 'A registration centre in a language',
    idSuffix: 'registrationcenter.get',
    input: { from: 'none' },
    operation: ops.CentresCentreDocument,
    variables: (_, req) => idAndLanguage(req),
    response: centres,
    result: (data, { res }) => ({
      registrationCenters: [toCentre(found(data.registrationCentre, () => masterdataErrors.centreNotFound(idAndLanguage(res.req).id)))],
    }),
  }),
  route({
    method: 'get',
    path: '/registrationcenters/{langcode}',
    summary: 'Every registration centre of a language',
    idSuffix: 'registrationcenter.get',
    input: { from: 'none' },
    operation: ops.CentresCentresOfLanguageDocument,
    variables: (_, req) => ({ langCode: pathParam(req, 'langcode') }),
    response: centres,
    result: (data) => ({ registrationCenters: data.registrationCentresOfLanguage.map(toCentre) }),
  }),
  route({
    method: 'delete',
    path: '/registrationcenters/{id}',
    summary: 'Delete a registration centre (every language), once nothing is mapped to it',
    idSuffix: 'registrationcenter.delete',
    input: { from: 'none' },
    operation: ops.CentresDeleteCentreDocument,
    variables: (_, req) => ({ id: pathParam(req, 'id') }),
    response: deleted,
    result: (data) => ({ id: data.deleteRegistrationCentre }),
  }),
  workingDaysRoute('/workingdays/{registrationCenterID}/{langCode}', 'registrationCenterID', 'langCode'),
  workingDaysRoute('/registrationcenters/{id}/workingdays/{langcode}', 'id', 'langcode'),
  route({
    method: 'post',
    path: '/machines',
    summary: 'Create a machine, or its row in another language',
    idSuffix: 'machine.create',
    input: { from: 'envelope', schema: machineInput },
    operation: ops.CentresCreateMachineDocument,
    variables: machineVariables,
    response: machineRecord,
    result: (data) => toMachine(data.createMachine),
  }),
  route({
    method: 'put',
    path: '/machines',
    summary: 'Update a machine (every language)',
    idSuffix: 'machine.update',
    input: { from: 'envelope', schema: machineInput },
    operation: ops.CentresUpdateMachineDocument,
    variables: machineVariables,
    response: machineRecord,
    result: (data) => toMachine(data.updateMachine),
  }),
  route({
    method: 'get',
    path: '/machines/{id}/{langcode}',
    summary: 'A machine in a language',
    idSuffix: 'machine.get',
    input: { from: 'none' },
    operation: ops.CentresMachineDocument,
    variables: (_, req) => idAndLanguage(req),
    response: machines,
    result: (data, { res }) => ({ machines: [toMachine(found(data.machine, () => masterdataErrors.machineNotFound(idAndLanguage(res.req).id)))] }),
  }),
  route({
    method: 'get',
    path: '/machines/{langcode}',
    summary: 'Every machine of a language',
    idSuffix: 'machine.get',
    input: { from: 'none' },
    operation: ops.CentresMachinesOfLanguageDocument,
    variables: (_, req) => ({ langCode: pathParam(req, 'langcode') }),
    response: machines,
    result: (data) => ({ machines: data.machinesOfLanguage.map(toMachine) }),
  }),
  route({
    method: 'delete',
    path: '/machines/{id}',
    summary: 'Delete a machine (every language)',
    idSuffix: 'machine.delete',
    input: { from: 'none' },
    operation: ops.CentresDeleteMachineDocument,
    variables: (_, req) => ({ id: pathParam(req, 'id') }),
    response: deleted,
    result: (data) => ({ id: data.deleteMachine }),
  }),
  route({
    method: 'post',
    path: '/usercentermapping',
    summary: 'Map a user to a registration centre',
    idSuffix: 'usercentermapping.create',
    input: { from: 'envelope', schema: mappingRequest },
    operation: ops.CentresMapUserDocument,
    variables: (input) => ({ userId: input.userId ?? input.id ?? '', regCenterId: input.regCenterId }),
    response: mappingRecord,
    result: (data) => toMapping(data.mapUserToCentre),
  }),
  route({
    method: 'delete',
    path: '/usercentermapping/{userid}/{regcenterid}',
    summary: 'Unmap a user from a registration centre',
    idSuffix: 'usercentermapping.delete',
    input: { from: 'none' },
    operation: ops.CentresUnmapUserDocument,
    variables: (_, req) => ({ userId: pathParam(req, 'userid'), regCenterId: pathParam(req, 'regcenterid') }),
    response: mappingRecord,
    result: (data) => toMapping(data.unmapUserFromCentre),
  }),
];

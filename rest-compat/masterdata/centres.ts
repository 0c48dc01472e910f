import type { Request } from 'express';
import { z } from 'zod';
import * as ops from '../../generated/graphql/masterdata.operations.js';
import type { CentresCentreRecordFragment, CentresMachineRecordFragment, CentresUserRecordFragment } from '../../generated/graphql/masterdata.operations.js';
import { centreInput, centresCodeFor as codeFor, machineInput, weekDay } from '../../subgraphs/masterdata/centres/inputs.js';
import { WEEK_DAYS } from '../../subgraphs/masterdata/centres/service.js';
import { operation } from '../operations.js';
import { defineRoute, pathParam, type RestRoute, timestamp } from '../route.js';

const PREFIX = '/v1/masterdata';
const text = z.string().nullable();

/** MOSIP's audit fields of every master data record (only live rows are shown, so never deleted). */
const audit = {
  createdBy: text,
  createdDateTime: z.string(),
  updatedBy: text,
  updatedDateTime: text,
  isDeleted: z.boolean(),
  deletedDateTime: text,
};
const auditOf = (row: {
  createdBy: { userId: string } | null;
  createdAt: Date | string;
  updatedBy: { userId: string } | null;
  updatedAt: Date | string | null;
}) => ({
  createdBy: row.createdBy?.userId ?? null,
  createdDateTime: timestamp(row.createdAt),
  updatedBy: row.updatedBy?.userId ?? null,
  updatedDateTime: row.updatedAt ? timestamp(row.updatedAt) : null,
  isDeleted: false,
  deletedDateTime: null,
});

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
  ...audit,
});
const toCentre = ({ workingDays, createdBy, createdAt, updatedBy, updatedAt, ...row }: CentresCentreRecordFragment): z.input<typeof centreRecord> => ({
  ...row,
  workingNonWorkingDays: Object.fromEntries(workingDays.map((day) => [day.dayCode, day.isWorking])),
  ...auditOf({ createdBy, createdAt, updatedBy, updatedAt }),
});
const centres = z.object({ registrationCenters: z.array(centreRecord) });

const workingDays = z.object({
  workingdays: z.array(z.object({ dayCode: z.string(), name: z.string(), order: z.number(), languageCode: z.string(), isWorking: z.boolean() })),
});
const workingDaysRoute = (path: string, idParam: string, langParam: string) =>
  defineRoute({
    method: 'get',
    path: `${PREFIX}${path}`,
    summary: "A registration centre's working and non-working days",
    id: 'platform.masterdata.workingdays.get',
    input: { from: 'none' },
    operation: operation(ops.CentresWorkingDaysDocument),
    variables: (_: unknown, req: Request) => ({ id: pathParam(req, idParam), langCode: pathParam(req, langParam) }),
    response: workingDays,
    result: (data, { res }) => ({
      workingdays: data.registrationCentreWorkingDays.map((day) => ({ ...day, languageCode: pathParam(res.req, langParam) })),
    }),
    codeFor,
    internalErrorCode: 'KER-MSD-500',
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
  ...audit,
});
const toMachine = ({ validityDateTime, createdBy, createdAt, updatedBy, updatedAt, ...row }: CentresMachineRecordFragment): z.input<typeof machineRecord> => ({
  ...row,
  validityDateTime: validityDateTime ? timestamp(validityDateTime) : null,
  ...auditOf({ createdBy, createdAt, updatedBy, updatedAt }),
});
const machines = z.object({ machines: z.array(machineRecord) });

// --- centre users ---

/** MOSIP's UserDetailsDto names the user `id`; `userId` is accepted too. */
const mappingRequest = z
  .object({ userId: z.string().max(64).nullish(), id: z.string().max(64).nullish(), regCenterId: z.string().max(10) })
  .refine((value) => Boolean(value.userId ?? value.id), { message: 'userId is required', path: ['userId'] });
const mappingRecord = z.object({ userId: z.string(), regCenterId: z.string(), isActive: z.boolean(), createdBy: text, createdDateTime: z.string() });
const toMapping = (row: CentresUserRecordFragment): z.input<typeof mappingRecord> => ({
  userId: row.user.userId,
  regCenterId: row.regCenterId,
  isActive: row.isActive,
  createdBy: row.createdBy?.userId ?? null,
  createdDateTime: timestamp(row.createdAt),
});

const idAndLanguage = (req: Request) => ({ id: pathParam(req, 'id'), langCode: pathParam(req, 'langcode') });
const deleted = z.object({ id: z.string() });

export const centresRoutes: RestRoute[] = [
  defineRoute({
    method: 'post',
    path: `${PREFIX}/registrationcenters`,
    summary: 'Create a registration centre, or its row in another language',
    id: 'platform.masterdata.registrationcenter.create',
    input: { from: 'envelope', schema: centreRequest },
    operation: operation(ops.CentresCreateCentreDocument),
    variables: centreVariables,
    response: centreRecord,
    result: (data) => toCentre(data.createRegistrationCentre),
    codeFor,
    internalErrorCode: 'KER-MSD-500',
  }),
  defineRoute({
    method: 'put',
    path: `${PREFIX}/registrationcenters`,
    summary: "Update a registration centre's row in a language",
    id: 'platform.masterdata.registrationcenter.update',
    input: { from: 'envelope', schema: centreRequest },
    operation: operation(ops.CentresUpdateCentreDocument),
    variables: centreVariables,
    response: centreRecord,
    result: (data) => toCentre(data.updateRegistrationCentre),
    codeFor,
    internalErrorCode: 'KER-MSD-500',
  }),
  defineRoute({
    method: 'get',
    path: `${PREFIX}/registrationcenters/{id}/{langcode}`,
    summary: 'A registration centre in a language',
    id: 'platform.masterdata.registrationcenter.get',
    input: { from: 'none' },
    operation: operation(ops.CentresCentreDocument),
    variables: (_, req) => idAndLanguage(req),
    response: centres,
    result: (data) => ({ registrationCenters: [toCentre(data.registrationCentre)] }),
    codeFor,
    internalErrorCode: 'KER-MSD-500',
  }),
  defineRoute({
    method: 'get',
    path: `${PREFIX}/registrationcenters/{langcode}`,
    summary: 'Every registration centre of a language',
    id: 'platform.masterdata.registrationcenter.get',
    input: { from: 'none' },
    operation: operation(ops.CentresCentresOfLanguageDocument),
    variables: (_, req) => ({ langCode: pathParam(req, 'langcode') }),
    response: centres,
    result: (data) => ({ registrationCenters: data.registrationCentresOfLanguage.map(toCentre) }),
    codeFor,
    internalErrorCode: 'KER-MSD-500',
  }),
  defineRoute({
    method: 'delete',
    path: `${PREFIX}/registrationcenters/{id}`,
    summary: 'Delete a registration centre (every language), once nothing is mapped to it',
    id: 'platform.masterdata.registrationcenter.delete',
    input: { from: 'none' },
    operation: operation(ops.CentresDeleteCentreDocument),
    variables: (_, req) => ({ id: pathParam(req, 'id') }),
    response: deleted,
    result: (data) => ({ id: data.deleteRegistrationCentre }),
    codeFor,
    internalErrorCode: 'KER-MSD-500',
  }),
  workingDaysRoute('/workingdays/{registrationCenterID}/{langCode}', 'registrationCenterID', 'langCode'),
  workingDaysRoute('/registrationcenters/{id}/workingdays/{langcode}', 'id', 'langcode'),
  defineRoute({
    method: 'post',
    path: `${PREFIX}/machines`,
    summary: 'Create a machine, or its row in another language',
    id: 'platform.masterdata.machine.create',
    input: { from: 'envelope', schema: machineInput },
    operation: operation(ops.CentresCreateMachineDocument),
    variables: (input) => ({ input }),
    response: machineRecord,
    result: (data) => toMachine(data.createMachine),
    codeFor,
    internalErrorCode: 'KER-MSD-500',
  }),
  defineRoute({
    method: 'put',
    path: `${PREFIX}/machines`,
    summary: 'Update a machine (every language)',
    id: 'platform.masterdata.machine.update',
    input: { from: 'envelope', schema: machineInput },
    operation: operation(ops.CentresUpdateMachineDocument),
    variables: (input) => ({ input }),
    response: machineRecord,
    result: (data) => toMachine(data.updateMachine),
    codeFor,
    internalErrorCode: 'KER-MSD-500',
  }),
  defineRoute({
    method: 'get',
    path: `${PREFIX}/machines/{id}/{langcode}`,
    summary: 'A machine in a language',
    id: 'platform.masterdata.machine.get',
    input: { from: 'none' },
    operation: operation(ops.CentresMachineDocument),
    variables: (_, req) => idAndLanguage(req),
    response: machines,
    result: (data) => ({ machines: [toMachine(data.machine)] }),
    codeFor,
    internalErrorCode: 'KER-MSD-500',
  }),
  defineRoute({
    method: 'get',
    path: `${PREFIX}/machines/{langcode}`,
    summary: 'Every machine of a language',
    id: 'platform.masterdata.machine.get',
    input: { from: 'none' },
    operation: operation(ops.CentresMachinesOfLanguageDocument),
    variables: (_, req) => ({ langCode: pathParam(req, 'langcode') }),
    response: machines,
    result: (data) => ({ machines: data.machinesOfLanguage.map(toMachine) }),
    codeFor,
    internalErrorCode: 'KER-MSD-500',
  }),
  defineRoute({
    method: 'delete',
    path: `${PREFIX}/machines/{id}`,
    summary: 'Delete a machine (every language)',
    id: 'platform.masterdata.machine.delete',
    input: { from: 'none' },
    operation: operation(ops.CentresDeleteMachineDocument),
    variables: (_, req) => ({ id: pathParam(req, 'id') }),
    response: deleted,
    result: (data) => ({ id: data.deleteMachine }),
    codeFor,
    internalErrorCode: 'KER-MSD-500',
  }),
  defineRoute({
    method: 'post',
    path: `${PREFIX}/usercentermapping`,
    summary: 'Map a user to a registration centre',
    id: 'platform.masterdata.usercentermapping.create',
    input: { from: 'envelope', schema: mappingRequest },
    operation: operation(ops.CentresMapUserDocument),
    variables: (input) => ({ userId: input.userId ?? input.id ?? '', regCenterId: input.regCenterId }),
    response: mappingRecord,
    result: (data) => toMapping(data.mapUserToCentre),
    codeFor,
    internalErrorCode: 'KER-MSD-500',
  }),
  defineRoute({
    method: 'delete',
    path: `${PREFIX}/usercentermapping/{userid}/{regcenterid}`,
    summary: 'Unmap a user from a registration centre',
    id: 'platform.masterdata.usercentermapping.delete',
    input: { from: 'none' },
    operation: operation(ops.CentresUnmapUserDocument),
    variables: (_, req) => ({ userId: pathParam(req, 'userid'), regCenterId: pathParam(req, 'regcenterid') }),
    response: mappingRecord,
    result: (data) => toMapping(data.unmapUserFromCentre),
    codeFor,
    internalErrorCode: 'KER-MSD-500',
  }),
];

import type { Request } from 'express';
import { z } from 'zod';
import * as ops from '../../generated/graphql/masterdata.operations.js';
import { centreInput, weekDay } from '../../subgraphs/masterdata/centres/inputs.js';
import { masterdataErrors } from '../../subgraphs/masterdata/errors.js';
import { auditShape, withAudit } from '../audit.js';
import { found, pathParam, type RestRoute } from '../route.js';
import { route } from './shared.js';

const text = z.string().nullable();

/** MOSIP's working days of a request: a map of day code (any case) to working or not. */
const workingNonWorkingDays = z
  .record(z.string(), z.boolean())
  .refine((days) => Object.keys(days).every((day) => weekDay.safeParse(day.toUpperCase()).success), { message: `days are ${weekDay.options.join(', ')}` })
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
const toCentre = ({ workingDays, ...row }: ops.CentresCentreRecordFragment): z.input<typeof centreRecord> =>
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
    operation: ops.CentresWorkingDaysDocument,
    variables: (_: unknown, req: Request) => ({ id: pathParam(req, idParam), langCode: pathParam(req, langParam) }),
    response: workingDays,
    result: (data, { res }) => ({
      workingdays: data.registrationCentreWorkingDays.map((day) => ({ ...day, languageCode: pathParam(res.req, langParam) })),
    }),
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
    operation: ops.CentresDeleteCentreDocument,
    variables: (_, req) => ({ id: pathParam(req, 'id') }),
    response: deleted,
    result: (data) => ({ id: data.deleteRegistrationCentre }),
  }),
  workingDaysRoute('/workingdays/{registrationCenterID}/{langCode}', 'registrationCenterID', 'langCode'),
  workingDaysRoute('/registrationcenters/{id}/workingdays/{langcode}', 'id', 'langcode'),
];

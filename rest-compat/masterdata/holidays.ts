import { z } from 'zod';
import * as ops from '../../generated/graphql/masterdata.operations.js';
import { holidaysArea, holidaysSchemas as schemas } from '../../subgraphs/masterdata/holidays/index.js';
import { auditShape, withAudit } from '../audit.js';
import { masterdataErrors } from '../../subgraphs/masterdata/errors.js';
import { dayOf } from '../../subgraphs/masterdata/holidays/inputs.js';
import { pathParam, type RestRoute } from '../route.js';
import { routeFactory } from '../route-factory.js';
import { filtersShape, mapRows, MASTERDATA, pageShape } from './shared.js';

/** MOSIP's holiday service answers any failure of an operation with its one code, the code the area gives its inputs. */
const operationCode = (rootField: string) => holidaysArea.codeFor('request', false, rootField);
const route = routeFactory({ ...MASTERDATA, idPrefix: 'platform.', internalErrorCode: operationCode });

/** Document 1's holiday record. */
const holiday = z.object({
  id: z.number(),
  locationCode: z.string(),
  holidayDate: z.string(),
  holidayDay: z.string(),
  holidayMonth: z.string(),
  holidayYear: z.string(),
  holidayName: z.string(),
  holidayDesc: z.string().nullable(),
  langCode: z.string(),
  isActive: z.boolean(),
});
/** The paged list's and the search's rows add the audit fields (and MOSIP's holidayId and name). */
const auditedHoliday = holiday.extend({ ...auditShape, holidayId: z.number(), name: z.string() });
const holidayKey = z.object({ holidayDate: z.string(), holidayName: z.string(), langCode: z.string(), locationCode: z.string() });
const holidays = z.object({ holidays: z.array(holiday) });
const audited = (row: ops.HolidayAuditedFragment): z.input<typeof auditedHoliday> => ({ ...withAudit(row), holidayId: row.id, name: row.holidayName });
/** One shape for the holiday reads by id. */
const byId = (path: string, withLanguage: boolean) =>
  route({
    method: 'get',
    path,
    summary: withLanguage ? 'A holiday in one language' : 'A holiday in every language',
    idSuffix: 'holiday.read',
    operation: ops.HolidaysByIdDocument,
    variables: (_input, req) => ({ holidayId: Number(pathParam(req, 'holidayid')), langCode: withLanguage ? pathParam(req, 'langcode') : null }),
    response: holidays,
    result: (data) => ({ holidays: data.holidaysById }),
  });

export const holidaysRoutes: RestRoute[] = [
  route({
    method: 'get',
    path: '/holidays',
    summary: 'Every holiday',
    idSuffix: 'holiday.read',
    operation: ops.HolidaysAllDocument,
    response: holidays,
    result: (data) => ({ holidays: data.allHolidays }),
    // takes no arguments, so the component's inputs have no code of its own for it
    codeFor: () => operationCode('allHolidays'),
  }),
  route({
    method: 'post',
    path: '/holidays',
    summary: 'Add a holiday (or a translation) to a location',
    idSuffix: 'holiday.create',
    input: { from: 'envelope', schema: schemas.createHoliday },
    operation: ops.HolidaysCreateDocument,
    variables: (input) => ({ ...input, holidayDate: dayOf(input.holidayDate, masterdataErrors.holidayInsert) }),
    response: holidayKey,
  }),
  route({
    method: 'put',
    path: '/holidays',
    summary: 'Rename, move or re-describe a holiday',
    idSuffix: 'holiday.update',
    input: { from: 'envelope', schema: schemas.updateHoliday },
    operation: ops.HolidaysUpdateDocument,
    variables: (input) => ({
      ...input,
      holidayDate: dayOf(input.holidayDate, masterdataErrors.holidayUpdate),
      newHolidayDate: dayOf(input.newHolidayDate, masterdataErrors.holidayUpdate),
    }),
    response: holidayKey,
  }),
  route({
    method: 'delete',
    path: '/holidays',
    summary: 'Delete a holiday in every language',
    idSuffix: 'holiday.delete',
    input: { from: 'envelope', schema: schemas.deleteHoliday },
    operation: ops.HolidaysDeleteDocument,
    variables: (input) => ({ ...input, holidayDate: dayOf(input.holidayDate, masterdataErrors.holidayDelete) }),
    response: holidayKey.omit({ langCode: true }),
  }),
  route({
    method: 'get',
    path: '/holidays/all',
    summary: 'Holidays, paged (orderBy desc, pageNumber 0, pageSize 10, sortBy createdDateTime by default)',
    idSuffix: 'holiday.read',
    input: { from: 'query', schema: schemas.holidayPage },
    operation: ops.HolidaysPagedDocument,
    response: pageShape(auditedHoliday),
    result: (data) => mapRows(data.holidayPage, audited),
  }),
  route({
    method: 'post',
    path: '/holidays/search',
    summary: 'Search holidays: contains, equals, startsWith, between; sort; pagination',
    idSuffix: 'holiday.search',
    input: { from: 'envelope', schema: schemas.searchHolidays.shape.request },
    operation: ops.HolidaysSearchDocument,
    variables: (request) => ({ request }),
    response: z.object({ holidays: z.array(auditedHoliday), fromRecord: z.number(), toRecord: z.number(), totalRecord: z.number() }),
    result: (data) => ({ ...data.searchHolidays, holidays: data.searchHolidays.holidays.map(audited) }),
  }),
  route({
    method: 'post',
    path: '/holidays/filtervalues',
    summary: 'Unique or all values of holiday columns',
    idSuffix: 'holiday.filtervalues',
    input: { from: 'envelope', schema: schemas.holidayFilterValues.shape.request },
    operation: ops.HolidaysFilterValuesDocument,
    variables: (request) => ({ request }),
    response: filtersShape,
  }),
  byId('/holidays/{holidayid}', false),
  byId('/holidays/{holidayid}/{langcode}', true),
];

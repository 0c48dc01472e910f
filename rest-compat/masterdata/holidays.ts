import { z } from 'zod';
import * as ops from '../../generated/graphql/masterdata.operations.js';
import { holidaysArea, holidaysSchemas as schemas } from '../../subgraphs/masterdata/holidays/index.js';
import { auditShape, withAudit } from '../audit.js';
import { masterdataErrors } from '../../subgraphs/masterdata/errors.js';
import { dayOf } from '../../subgraphs/masterdata/holidays/service.js';
import { pathParam, type RestRoute } from '../route.js';
import { routeFactory } from '../route-factory.js';
import { mapRows, MASTERDATA, pageShape } from './shared.js';

/** MOSIP's holiday and location services answer any failure of an operation with its one code, the code the area gives its inputs. */
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
const location = z.object({
  code: z.string(),
  name: z.string(),
  hierarchyLevel: z.number(),
  hierarchyName: z.string(),
  parentLocCode: z.string().nullable(),
  langCode: z.string(),
  isActive: z.boolean(),
});
const locations = z.object({ locations: z.array(location) });

const audited = (row: ops.HolidayAuditedFragment): z.input<typeof auditedHoliday> => ({ ...withAudit(row), holidayId: row.id, name: row.holidayName });
const toLocation = ({ parentCode, ...row }: ops.LocationRecordFragment) => ({ ...row, parentLocCode: parentCode ?? null });

/** One shape for the holiday reads by id. */
const byId = (path: string, withLanguage: boolean) =>
  route({
    method: 'get',
    path,
    summary: withLanguage ? 'A holiday in one language' : 'A holiday in every language',
    idSuffix: 'holiday.read',
    input: { from: 'none' },
    operation: ops.HolidaysByIdDocument,
    variables: (_input, req) => ({ holidayId: Number(pathParam(req, 'holidayid')), langCode: withLanguage ? pathParam(req, 'langcode') : null }),
    response: holidays,
    result: (data) => ({ holidays: data.holidaysById }),
  });

/** The location reads by (code, language). */
const locationRead = (
  path: string,
  summary: string,
  document: typeof ops.LocationsHierarchyDocument | typeof ops.LocationsChildrenDocument,
  pick: (data: ops.LocationsHierarchyQuery & ops.LocationsChildrenQuery) => ops.LocationRecordFragment[],
) =>
  route({
    method: 'get',
    path,
    summary,
    idSuffix: 'location.read',
    input: { from: 'none' },
    operation: document as typeof ops.LocationsHierarchyDocument,
    variables: (_input, req) => ({ code: pathParam(req, 'locationcode'), langCode: pathParam(req, 'langcode') }),
    response: z.object({ locations: z.array(location) }),
    result: (data) => ({ locations: pick(data as ops.LocationsHierarchyQuery & ops.LocationsChildrenQuery).map(toLocation) }),
  });

export const holidaysRoutes: RestRoute[] = [
  route({
    method: 'get',
    path: '/holidays',
    summary: 'Every holiday',
    idSuffix: 'holiday.read',
    input: { from: 'none' },
    operation: ops.HolidaysAllDocument,
    variables: () => ({}),
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
    result: (data) => data.createHoliday,
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
    result: (data) => data.updateHoliday,
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
    result: (data) => data.deleteHoliday,
  }),
  route({
    method: 'get',
    path: '/holidays/all',
    summary: 'Holidays, paged (orderBy desc, pageNumber 0, pageSize 10, sortBy createdDateTime by default)',
    idSuffix: 'holiday.read',
    input: { from: 'query', schema: schemas.holidayPage },
    operation: ops.HolidaysPagedDocument,
    variables: (input) => input,
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
    response: z.object({ filters: z.array(z.object({ fieldID: z.string(), fieldValue: z.string() })) }),
    result: (data) => data.holidayFilterValues,
  }),
  byId('/holidays/{holidayid}', false),
  byId('/holidays/{holidayid}/{langcode}', true),
  route({
    method: 'post',
    path: '/locations',
    summary: 'Add a location to the hierarchy',
    idSuffix: 'location.create',
    input: { from: 'envelope', schema: schemas.createLocation },
    operation: ops.LocationsCreateDocument,
    variables: (input) => input,
    response: location,
    result: (data) => toLocation(data.createLocation),
  }),
  route({
    method: 'get',
    path: '/locations/{langcode}',
    summary: 'The locations of a language',
    idSuffix: 'location.read',
    input: { from: 'none' },
    operation: ops.LocationsByLanguageDocument,
    variables: (_input, req) => ({ langCode: pathParam(req, 'langcode') }),
    response: locations,
    result: (data) => ({ locations: data.locationsByLanguage.map(toLocation) }),
  }),
  locationRead(
    '/locations/{locationcode}/{langcode}',
    'A location and its ancestors, nearest first',
    ops.LocationsHierarchyDocument,
    (data) => data.locationHierarchy,
  ),
  locationRead(
    '/locations/immediatechildren/{locationcode}/{langcode}',
    'The children of a location',
    ops.LocationsChildrenDocument,
    (data) => data.locationChildren,
  ),
];

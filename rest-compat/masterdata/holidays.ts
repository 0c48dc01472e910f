import { z } from 'zod';
import * as ops from '../../generated/graphql/masterdata.operations.js';
import { holidaysArea, holidaysSchemas as schemas } from '../../subgraphs/masterdata/holidays/index.js';
import { operation } from '../operations.js';
import { defineRoute, pathParam, type RestRoute, timestamp } from '../route.js';

const PREFIX = '/v1/masterdata';
const code = (rootField: string) => (field: string, missing: boolean) => holidaysArea.codeFor(field, missing, rootField);

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
const auditedHoliday = holiday.extend({
  createdBy: z.string().nullable(),
  createdDateTime: z.string(),
  updatedBy: z.string().nullable(),
  updatedDateTime: z.string().nullable(),
  isDeleted: z.boolean(),
  deletedDateTime: z.string().nullable(),
  holidayId: z.number(),
  name: z.string(),
});
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

const audited = ({ createdBy, createdAt, updatedBy, updatedAt, deletedAt, ...row }: ops.HolidayAuditedFragment): z.input<typeof auditedHoliday> => ({
  ...row,
  createdBy: createdBy?.userId ?? null,
  createdDateTime: timestamp(createdAt),
  updatedBy: updatedBy?.userId ?? null,
  updatedDateTime: updatedAt ? timestamp(updatedAt) : null,
  deletedDateTime: deletedAt ? timestamp(deletedAt) : null,
  holidayId: row.id,
  name: row.holidayName,
});
const toLocation = ({ parentCode, ...row }: ops.LocationRecordFragment) => ({ ...row, parentLocCode: parentCode ?? null });

/** One shape for the holiday reads by id. */
const byId = (path: string, withLanguage: boolean) =>
  defineRoute({
    method: 'get',
    path: `${PREFIX}${path}`,
    summary: withLanguage ? 'A holiday in one language' : 'A holiday in every language',
    id: 'platform.holiday.read',
    input: { from: 'none' },
    operation: operation(ops.HolidaysByIdDocument),
    variables: (_input, req) => ({ holidayId: Number(pathParam(req, 'holidayid')), langCode: withLanguage ? pathParam(req, 'langcode') : null }),
    response: holidays,
    result: (data) => ({ holidays: data.holidaysById }),
    codeFor: code('holidaysById'),
    internalErrorCode: 'KER-MSD-019',
  });

/** The location reads by (code, language). */
const locationRead = (
  path: string,
  summary: string,
  document: typeof ops.LocationsHierarchyDocument | typeof ops.LocationsChildrenDocument,
  pick: (data: ops.LocationsHierarchyQuery & ops.LocationsChildrenQuery) => ops.LocationRecordFragment[],
) =>
  defineRoute({
    method: 'get',
    path: `${PREFIX}${path}`,
    summary,
    id: 'platform.location.read',
    input: { from: 'none' },
    operation: operation(document as typeof ops.LocationsHierarchyDocument),
    variables: (_input, req) => ({ code: pathParam(req, 'locationcode'), langCode: pathParam(req, 'langcode') }),
    response: z.object({ locations: z.array(location) }),
    result: (data) => ({ locations: pick(data as ops.LocationsHierarchyQuery & ops.LocationsChildrenQuery).map(toLocation) }),
    codeFor: code('locationHierarchy'),
    internalErrorCode: 'KER-MSD-025',
  });

export const holidaysRoutes: RestRoute[] = [
  defineRoute({
    method: 'get',
    path: `${PREFIX}/holidays`,
    summary: 'Every holiday',
    id: 'platform.holiday.read',
    input: { from: 'none' },
    operation: operation(ops.HolidaysAllDocument),
    variables: () => ({}),
    response: holidays,
    result: (data) => ({ holidays: data.allHolidays }),
    codeFor: code('allHolidays'),
    internalErrorCode: 'KER-MSD-019',
  }),
  defineRoute({
    method: 'post',
    path: `${PREFIX}/holidays`,
    summary: 'Add a holiday (or a translation) to a location',
    id: 'platform.holiday.create',
    input: { from: 'envelope', schema: schemas.createHoliday },
    operation: operation(ops.HolidaysCreateDocument),
    variables: (input) => input,
    response: holidayKey,
    result: (data) => data.createHoliday,
    codeFor: code('createHoliday'),
    internalErrorCode: 'KER-MSD-065',
  }),
  defineRoute({
    method: 'put',
    path: `${PREFIX}/holidays`,
    summary: 'Rename, move or re-describe a holiday',
    id: 'platform.holiday.update',
    input: { from: 'envelope', schema: schemas.updateHoliday },
    operation: operation(ops.HolidaysUpdateDocument),
    variables: (input) => input,
    response: holidayKey,
    result: (data) => data.updateHoliday,
    codeFor: code('updateHoliday'),
    internalErrorCode: 'KER-MSD-099',
  }),
  defineRoute({
    method: 'delete',
    path: `${PREFIX}/holidays`,
    summary: 'Delete a holiday in every language',
    id: 'platform.holiday.delete',
    input: { from: 'envelope', schema: schemas.deleteHoliday },
    operation: operation(ops.HolidaysDeleteDocument),
    variables: (input) => input,
    response: holidayKey.omit({ langCode: true }),
    result: (data) => data.deleteHoliday,
    codeFor: code('deleteHoliday'),
    internalErrorCode: 'KER-MSD-100',
  }),
  defineRoute({
    method: 'get',
    path: `${PREFIX}/holidays/all`,
    summary: 'Holidays, paged (orderBy desc, pageNumber 0, pageSize 10, sortBy createdDateTime by default)',
    id: 'platform.holiday.read',
    input: { from: 'query', schema: schemas.holidayPage },
    operation: operation(ops.HolidaysPagedDocument),
    variables: (input) => input,
    response: z.object({ data: z.array(auditedHoliday), pageNo: z.number(), totalItems: z.number(), totalPages: z.number() }),
    result: (data) => ({ ...data.holidayPage, data: data.holidayPage.data.map(audited) }),
    codeFor: code('holidayPage'),
    internalErrorCode: 'KER-MSD-019',
  }),
  defineRoute({
    method: 'post',
    path: `${PREFIX}/holidays/search`,
    summary: 'Search holidays: contains, equals, startsWith, between; sort; pagination',
    id: 'platform.holiday.search',
    input: { from: 'envelope', schema: schemas.searchHolidays.shape.request },
    operation: operation(ops.HolidaysSearchDocument),
    variables: (request) => ({ request }),
    response: z.object({ holidays: z.array(auditedHoliday), fromRecord: z.number(), toRecord: z.number(), totalRecord: z.number() }),
    result: (data) => ({ ...data.searchHolidays, holidays: data.searchHolidays.holidays.map(audited) }),
    codeFor: (field, missing) => code('searchHolidays')(`request.${field}`, missing),
    internalErrorCode: 'KER-MSD-019',
  }),
  defineRoute({
    method: 'post',
    path: `${PREFIX}/holidays/filtervalues`,
    summary: 'Unique or all values of holiday columns',
    id: 'platform.holiday.filtervalues',
    input: { from: 'envelope', schema: schemas.holidayFilterValues.shape.request },
    operation: operation(ops.HolidaysFilterValuesDocument),
    variables: (request) => ({ request }),
    response: z.object({ filters: z.array(z.object({ fieldID: z.string(), fieldValue: z.string() })) }),
    result: (data) => data.holidayFilterValues,
    codeFor: (field, missing) => code('holidayFilterValues')(`request.${field}`, missing),
    internalErrorCode: 'KER-MSD-019',
  }),
  byId('/holidays/{holidayid}', false),
  byId('/holidays/{holidayid}/{langcode}', true),
  defineRoute({
    method: 'post',
    path: `${PREFIX}/locations`,
    summary: 'Add a location to the hierarchy',
    id: 'platform.location.create',
    input: { from: 'envelope', schema: schemas.createLocation },
    operation: operation(ops.LocationsCreateDocument),
    variables: (input) => input,
    response: location,
    result: (data) => toLocation(data.createLocation),
    codeFor: code('createLocation'),
    internalErrorCode: 'KER-MSD-064',
  }),
  defineRoute({
    method: 'get',
    path: `${PREFIX}/locations/{langcode}`,
    summary: 'The locations of a language',
    id: 'platform.location.read',
    input: { from: 'none' },
    operation: operation(ops.LocationsByLanguageDocument),
    variables: (_input, req) => ({ langCode: pathParam(req, 'langcode') }),
    response: locations,
    result: (data) => ({ locations: data.locationsByLanguage.map(toLocation) }),
    codeFor: code('locationsByLanguage'),
    internalErrorCode: 'KER-MSD-025',
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

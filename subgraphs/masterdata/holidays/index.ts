import type { RequestContext } from '../../../lib/context.js';
import { loader } from '../../../lib/graph/loader.js';
import { MASTERDATA_READERS, MASTERDATA_WRITERS } from '../access.js';
import { defineArea } from '../area.js';
import { pairKey } from '../keys.js';
import { holidaysCodeFor, holidaysSchemas } from './inputs.js';
import { LocationService } from './locations-service.js';
import { HolidayService } from './service.js';
import { HolidayStorage, LocationStorage } from './storage.js';

// REST's holiday routes take the schemas from here.
export { holidaysSchemas } from './inputs.js';

declare module '../../../lib/deps.js' {
  interface PlatformServices {
    /** the location hierarchy */
    locations: LocationService;
    /** holidays of locations */
    holidays: HolidayService;
  }
}

const key = (row: { code: string; langCode: string }) => pairKey(row.code, row.langCode);

/** Locations and holidays. */
export const holidaysArea = defineArea({
  name: 'holidays',
  access: {
    'Query.allHolidays': MASTERDATA_READERS,
    'Query.holidaysById': MASTERDATA_READERS,
    'Query.holidayPage': MASTERDATA_READERS,
    'Query.searchHolidays': MASTERDATA_READERS,
    'Query.holidayFilterValues': MASTERDATA_READERS,
    'Query.holidays': MASTERDATA_READERS,
    'Query.locationsByLanguage': MASTERDATA_READERS,
    'Query.locationHierarchy': MASTERDATA_READERS,
    'Query.locationChildren': MASTERDATA_READERS,
    'Query.locations': MASTERDATA_READERS,
    'Mutation.createHoliday': MASTERDATA_WRITERS,
    'Mutation.updateHoliday': MASTERDATA_WRITERS,
    'Mutation.deleteHoliday': MASTERDATA_WRITERS,
    'Mutation.createLocation': MASTERDATA_WRITERS,
    'Holiday.__resolveReference': MASTERDATA_READERS,
    'Location.__resolveReference': MASTERDATA_READERS,
  },
  schemas: holidaysSchemas,
  codeFor: holidaysCodeFor,
  services: (deps) => {
    const locations = new LocationService(new LocationStorage(deps.prisma), deps.clock);
    return { locations, holidays: new HolidayService(new HolidayStorage(deps.prisma), deps.clock, locations, deps.events) };
  },
  resolvers: (deps) => {
    const { holidays, locations } = deps.services;
    const locationOf = (context: RequestContext) => loader(context, 'masterdata.location', (keys: readonly string[]) => locations.byKeys(keys));
    const holidayOf = (context: RequestContext) => loader(context, 'masterdata.holiday', (keys: readonly string[]) => holidays.byKeys(keys));
    const by = async (context: RequestContext) => (await context.principal()).subject;
    const day = (row: { holidayDate: Date }) => row.holidayDate.toISOString().slice(0, 10);
    return {
      Query: {
        allHolidays: () => holidays.all(),
        holidaysById: (_, args) => holidays.byId(args.holidayId, args.langCode),
        holidayPage: (_, args) => holidays.paged(args),
        searchHolidays: async (_, args) => {
          const page = await holidays.search(args.request);
          return { holidays: page.data, fromRecord: page.fromRecord, toRecord: page.toRecord, totalRecord: page.totalRecord };
        },
        holidayFilterValues: (_, args) => holidays.filterValues(args.request),
        holidays: (_, args) => holidays.list(args, args.filter),
        locationsByLanguage: (_, args) => locations.byLanguage(args.langCode),
        locationHierarchy: (_, args) => locations.hierarchy(args.code, args.langCode),
        locationChildren: (_, args) => locations.children(args.code, args.langCode),
        locations: (_, args) => locations.list(args, args.filter),
      },
      Mutation: {
        createHoliday: async (_, args, context) => holidays.create(await by(context), args),
        updateHoliday: async (_, args, context) => holidays.update(await by(context), args),
        deleteHoliday: async (_, args, context) => holidays.delete(await by(context), args),
        createLocation: async (_, args, context) => locations.create(await by(context), args),
      },
      Holiday: {
        __resolveReference: (ref, context) => holidayOf(context)(pairKey(String(ref.id), ref.langCode)),
        location: (row, _, context) => locationOf(context)(key({ code: row.locationCode, langCode: row.langCode })),
        holidayDate: day,
        holidayDay: (row) => String(row.holidayDate.getUTCDate()),
        holidayMonth: (row) => String(row.holidayDate.getUTCMonth() + 1),
        holidayYear: (row) => String(row.holidayDate.getUTCFullYear()),
        createdBy: (row) => ({ userId: row.createdBy }),
        updatedBy: (row) => (row.updatedBy ? { userId: row.updatedBy } : null),
      },
      Location: {
        __resolveReference: (ref, context) => locationOf(context)(key(ref)),
        parent: (row, _, context) => (row.parentCode ? locationOf(context)(key({ code: row.parentCode, langCode: row.langCode })) : null),
        createdBy: (row) => ({ userId: row.createdBy }),
        updatedBy: (row) => (row.updatedBy ? { userId: row.updatedBy } : null),
      },
    };
  },
});

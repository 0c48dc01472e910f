import { z } from 'zod';
import { identifier } from '../../../lib/input.js';
import { connectionPage, pagedListInput } from '../paged.js';
import { filterValuesInput, searchInput } from '../search-inputs.js';

/** A day as REST sends it, checked as the holiday writes check it: kept with the rows' date rules, offered here as a wire parser. */
export { dayOf } from './rows.js';

const code = z.string().trim().min(1).max(36);
const lang = z.string().trim().length(3);
const name = z.string().trim().min(1).max(64);
const desc = z.string().trim().max(128);
const date = z.string().max(10);
const holidayKey = z.object({ holidayDate: date, holidayName: name, locationCode: code });
/** A filter's language (a column of three letters). */
const langFilter = identifier(3).nullish();
/** A filter's date: the service reads it as yyyy-MM-dd (KER-MSD-019 otherwise, with its reason). */
const dateFilter = identifier(64).nullish();

/** The arguments of the holiday and location root fields, for GraphQL and REST alike. */
export const holidaysSchemas = {
  createHoliday: holidayKey.extend({
    id: z.number().int().positive().nullish(),
    holidayDay: z.string().max(16).nullish(),
    holidayMonth: z.string().max(16),
    holidayYear: z.string().max(4),
    holidayDesc: desc,
    langCode: lang,
    isActive: z.boolean(),
  }),
  updateHoliday: holidayKey.extend({
    id: z.number().int().positive(),
    holidayDesc: desc,
    langCode: lang,
    isActive: z.boolean(),
    newHolidayName: name,
    newHolidayDate: date,
    newHolidayDesc: desc,
  }),
  deleteHoliday: holidayKey,
  holidaysById: z.object({ holidayId: z.coerce.number().int().positive(), langCode: lang.nullish() }),
  holidayPage: pagedListInput,
  searchHolidays: z.object({ request: searchInput }),
  holidayFilterValues: z.object({ request: filterValuesInput.extend({ languageCode: lang }) }),
  holidays: z.object({
    ...connectionPage,
    filter: z
      .object({ langCode: langFilter, locationCode: identifier(36).nullish(), from: dateFilter, to: dateFilter, isActive: z.boolean().nullish() })
      .nullish(),
  }),
  createLocation: z.object({
    code,
    langCode: lang,
    name,
    hierarchyLevel: z.number().int().min(0).max(10),
    hierarchyName: name,
    parentLocCode: code.nullish(),
    isActive: z.boolean(),
  }),
  locationsByLanguage: z.object({ langCode: lang }),
  locationHierarchy: z.object({ code, langCode: lang }),
  locationChildren: z.object({ code, langCode: lang }),
  locations: z.object({
    ...connectionPage,
    filter: z.object({ langCode: langFilter, hierarchyLevel: z.number().int().nullish(), parentCode: identifier(36).nullish() }).nullish(),
  }),
};

/** MOSIP's codes for a bad holiday request: that of the failing operation. */
const HOLIDAY_CODES: Record<string, string> = {
  createHoliday: 'KER-MSD-065',
  updateHoliday: 'KER-MSD-099',
  deleteHoliday: 'KER-MSD-100',
  createLocation: 'KER-MSD-064',
};

/** A bad argument: the code of the failing operation, else of fetching locations or holidays. */
export const holidaysCodeFor = (_field: string, _missing: boolean, rootField: string): string =>
  HOLIDAY_CODES[rootField] ?? (rootField.startsWith('location') ? 'KER-MSD-025' : 'KER-MSD-019');

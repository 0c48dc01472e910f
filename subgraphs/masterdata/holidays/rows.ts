import type { Holiday as HolidayRow, Location as LocationRow } from '../../../generated/prisma/client.js';
import { PlatformError } from '../../../lib/errors.js';
import { masterdataErrors } from '../errors.js';

/*
 * The holiday and location rows, and the plain rules over their keys and
 * dates: shared by the services, the storage and the centres area (a centre's
 * holidays), none of which needs the others for them.
 */

export type { HolidayRow, LocationRow };

export interface HolidayFilter {
  langCode?: string | null;
  locationCode?: string | null;
  from?: string | null;
  to?: string | null;
  isActive?: boolean | null;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A holiday id from a cursor or reference: a positive whole number, else the key is not one of this list. */
export function holidayIdOf(text: string): number {
  const id = Number(text);
  if (!Number.isSafeInteger(id) || id < 1) throw new PlatformError('BAD_USER_INPUT', 'not a holiday key');
  return id;
}

/** A holiday's date: yyyy-MM-dd, a real day. */
export function dateOf(text: string, error: (why: string) => Error): Date {
  const date = new Date(`${text}T00:00:00.000Z`);
  if (!DATE.test(text) || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text) throw error(`${text} is not a date (yyyy-MM-dd)`);
  return date;
}

/** A day as REST sends it, checked as the holiday writes check it (their error when it is not yyyy-MM-dd): the graph's Date. */
export function dayOf(text: string, error: (why: string) => Error): string {
  dateOf(text, error);
  return text;
}

/** A holiday list's dates, from and to included: yyyy-MM-dd, real days (KER-MSD-019 otherwise). */
export function holidayDates(filter?: Pick<HolidayFilter, 'from' | 'to'> | null): { from?: Date; to?: Date } {
  return {
    ...(filter?.from ? { from: dateOf(filter.from, masterdataErrors.holidayFetch) } : {}),
    ...(filter?.to ? { to: dateOf(filter.to, masterdataErrors.holidayFetch) } : {}),
  };
}

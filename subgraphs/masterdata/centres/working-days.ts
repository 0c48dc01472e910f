import type { WorkingDayRow } from './storage/centres.js';

export const WEEK_DAYS = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];
const DAY_NAMES: Record<WeekDay, string> = { MON: 'Monday', TUE: 'Tuesday', WED: 'Wednesday', THU: 'Thursday', FRI: 'Friday', SAT: 'Saturday', SUN: 'Sunday' };
/** A new centre opens Monday to Friday unless told otherwise. */
const DEFAULT_WORKING: ReadonlySet<WeekDay> = new Set(['MON', 'TUE', 'WED', 'THU', 'FRI']);

/** A day of a centre's week as the portal and REST show it. */
export interface WorkingDay {
  dayCode: WeekDay;
  name: string;
  order: number;
  isWorking: boolean;
}

/** The days a request gives (the others keep what they are). */
export type GivenDays = readonly { dayCode: WeekDay; isWorking: boolean }[] | null | undefined;

/** A centre's week from its rows of one language: every day, Monday first; a day without a row is not worked. */
export const workingDaysOf = (rows: readonly Pick<WorkingDayRow, 'dayCode' | 'isWorking'>[]): WorkingDay[] =>
  WEEK_DAYS.map((dayCode, index) => ({
    dayCode,
    name: DAY_NAMES[dayCode],
    order: index + 1,
    isWorking: rows.find((row) => row.dayCode === dayCode)?.isWorking ?? false,
  }));

/** One write of a working day row: a new row, a deleted row brought back, or a live row whose day changes. */
export interface WorkingDayWrite {
  langCode: string;
  /** a week day, or the code of a stored day the week does not name (kept as it is stored) */
  dayCode: string;
  isWorking: boolean;
  write: 'create' | 'revive' | 'update';
}

/**
 * The writes that give every live language of a centre the same week: the
 * stored days (any language's live rows; Monday to Friday for a new
 * centre), then the given ones over them. A row already as it should be is
 * left alone. In order: language by language, Monday first.
 */
export function workingDayWrites(
  languages: readonly string[],
  stored: readonly Pick<WorkingDayRow, 'langCode' | 'dayCode' | 'isWorking' | 'isDeleted'>[],
  given: GivenDays,
): WorkingDayWrite[] {
  const days = new Map<string, boolean>(WEEK_DAYS.map((day) => [day, DEFAULT_WORKING.has(day)]));
  for (const row of stored) if (!row.isDeleted) days.set(row.dayCode, row.isWorking);
  for (const day of given ?? []) days.set(day.dayCode, day.isWorking);
  const writes: WorkingDayWrite[] = [];
  for (const langCode of languages) {
    for (const [dayCode, isWorking] of days) {
      const row = stored.find((r) => r.langCode === langCode && r.dayCode === dayCode);
      if (row && !row.isDeleted && row.isWorking === isWorking) continue;
      writes.push({ langCode, dayCode, isWorking, write: !row ? 'create' : row.isDeleted ? 'revive' : 'update' });
    }
  }
  return writes;
}

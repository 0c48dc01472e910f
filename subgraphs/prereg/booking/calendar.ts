/*
 * Days and times of day as booking keeps them. A slot is a time of day on the
 * centre's wall clock ("HH:mm:ss", no zone, as MOSIP keeps them) and a day is
 * yyyy-MM-dd; "today" and "now" are read from the platform clock in UTC.
 */

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;
const DAY_MS = 86_400_000;
/** JavaScript's getUTCDay order, as master data's day codes. */
const WEEK = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] as const;

/** Whether the text is a calendar day, yyyy-MM-dd, that exists (not 2026-02-30). */
export function isDay(text: string): boolean {
  if (!DAY.test(text)) return false;
  const date = new Date(`${text}T00:00:00.000Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

/** The UTC day of an instant (a DATE column reads as UTC midnight). */
export const dayOf = (date: Date): string => date.toISOString().slice(0, 10);

/** A day as the UTC midnight a DATE column holds. */
export const dateOfDay = (day: string): Date => new Date(`${day}T00:00:00.000Z`);

export const addDays = (day: string, count: number): string => dayOf(new Date(dateOfDay(day).getTime() + count * DAY_MS));

/** Master data's code of a day's week day (MON..SUN). */
export const weekDayOf = (day: string): string => WEEK[dateOfDay(day).getUTCDay()]!;

/** Seconds into the day of "H:mm" or "H:mm:ss"; undefined for anything else (25:00, 10:61). */
export function secondsOfTime(text: string | null | undefined): number | undefined {
  const match = text ? TIME.exec(text.trim()) : null;
  if (!match) return undefined;
  const [hours, minutes, seconds] = [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
  return hours < 24 && minutes < 60 && seconds < 60 ? hours * 3600 + minutes * 60 + seconds : undefined;
}

export const timeOfSeconds = (seconds: number): string =>
  [Math.floor(seconds / 3600), Math.floor((seconds % 3600) / 60), seconds % 60].map((part) => String(part).padStart(2, '0')).join(':');

/** A time of day in the one form booking keeps, HH:mm:ss; undefined when it is not one. */
export function normalTime(text: string): string | undefined {
  const seconds = secondsOfTime(text);
  return seconds === undefined ? undefined : timeOfSeconds(seconds);
}

/** The hours and process time of a centre, as master data keeps them ("HH:mm:ss" texts, or none). */
export interface CentreHours {
  centerStartTime: string | null;
  centerEndTime: string | null;
  lunchStartTime: string | null;
  lunchEndTime: string | null;
  perKioskProcessTime: string | null;
}

export interface SlotTime {
  fromTime: string;
  toTime: string;
}

/** Consecutive slots of `length` seconds from `start`, each ending by `end`. */
function run(start: number, end: number, length: number): SlotTime[] {
  const slots: SlotTime[] = [];
  for (let from = start; from + length <= end; from += length) slots.push({ fromTime: timeOfSeconds(from), toTime: timeOfSeconds(from + length) });
  return slots;
}

/**
 * The slots of a working day, as MOSIP's slot generator makes them:
 * consecutive slots of the per-kiosk process time from the centre's start to
 * the lunch break, then from its end to the centre's end, each ending by its
 * bound. No hours (or 00:00 to 00:00) or no process time: no slots; no lunch
 * (or 00:00 to 00:00, or a break outside the hours): no split.
 */
export function slotsOfDay(hours: CentreHours): SlotTime[] {
  const [start, end, lunchStart, lunchEnd, length] = [
    hours.centerStartTime,
    hours.centerEndTime,
    hours.lunchStartTime,
    hours.lunchEndTime,
    hours.perKioskProcessTime,
  ].map(secondsOfTime);
  if (start === undefined || end === undefined || !length || start >= end) return [];
  const split = lunchStart !== undefined && lunchEnd !== undefined && lunchStart < lunchEnd && lunchStart >= start && lunchEnd <= end;
  return split ? [...run(start, lunchStart, length), ...run(lunchEnd, end, length)] : run(start, end, length);
}

/** `count` days from `first`. */
export const daysFrom = (first: string, count: number): string[] => Array.from({ length: Math.max(0, count) }, (_, index) => addDays(first, index));

/** The instant a slot starts, its wall-clock time read as UTC (the platform keeps no zone for a centre's day). */
const startOf = (day: string, fromTime: string): number => dateOfDay(day).getTime() + (secondsOfTime(fromTime) ?? 0) * 1000;

/** Whether a slot has started: a day before today, or today at a time before now (PRG_BOOK_RCI_031). */
export const hasStarted = (day: string, fromTime: string, now: Date): boolean => startOf(day, fromTime) < now.getTime();

/** Whole hours from now until the slot starts (MOSIP's time-span rule counts whole hours; negative once started). */
export const wholeHoursUntil = (day: string, fromTime: string, now: Date): number => Math.floor((startOf(day, fromTime) - now.getTime()) / 3_600_000);

/** Whether a time-span rule of `hours` (0: none) refuses a change to a slot starting then. */
export const withinSpan = (hours: number, day: string, fromTime: string, now: Date): boolean => hours > 0 && wholeHoursUntil(day, fromTime, now) < hours;

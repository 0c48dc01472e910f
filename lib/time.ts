/** The spec's timestamp layout: yyyy-MM-dd'T'HH:mm:ss.SSS'Z' (UTC, milliseconds). */
export function formatTimestamp(date: Date): string {
  return date.toISOString();
}

const SPEC_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Parses the spec's timestamp layout strictly; undefined when it does not match or is not a real date. */
export function parseTimestamp(value: string): Date | undefined {
  if (!SPEC_TIMESTAMP.test(value)) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) || formatTimestamp(date) !== value ? undefined : date;
}

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})?$/;

/**
 * The one parser for instants callers send (expiry times, key timestamps,
 * GraphQL DateTime): ISO 8601 date and time, fraction optional, zone `Z` or
 * `±hh:mm`; without a zone it is UTC, as MOSIP's LocalDateTime values are.
 * Undefined for anything else, impossible dates (2026-02-30) included.
 */
export function parseInstant(value: string): Date | undefined {
  const match = INSTANT.exec(value.trim());
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second, fraction = '', zone = 'Z'] = match;
  const date = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}.${fraction.padEnd(3, '0').slice(0, 3)}${zone}`);
  if (Number.isNaN(date.getTime())) return undefined;
  // Date rolls 02-30 over to 03-02: the calendar fields must survive the round trip.
  const check = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second)));
  return check.getUTCMonth() === Number(month) - 1 && check.getUTCDate() === Number(day) && Number(hour) < 24 ? date : undefined;
}

/** An instant as a request writes it (`parseInstant`), or the component's own refusal: each names its error. */
export function instantOr(text: string, refusal: () => Error): Date {
  const at = parseInstant(text);
  if (!at) throw refusal();
  return at;
}

/** An injectable clock, so tests move time instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can set and advance. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start: Date = new Date()) {
    this.current = start.getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(date: Date): void {
    this.current = date.getTime();
  }
}

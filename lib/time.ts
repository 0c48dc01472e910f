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

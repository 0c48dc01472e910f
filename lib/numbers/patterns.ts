import type { NumberRules } from './config.js';
import { at, toDigits, type Digits } from './digits.js';

/*
 * Pattern rules, checked on the digits ending at one index: a number breaks a
 * rule when some such window does, and a generator can drop a candidate at its
 * first bad digit. Each finder returns where the offending digits start, or -1;
 * a limit of 0 turns its rule off (as MOSIP's VidFilterUtils does).
 */

function matchesAt(digits: Digits, start: number, wanted: Digits): boolean {
  if (start < 0) return false;
  for (let k = 0; k < wanted.length; k++) if (at(digits, start + k) !== at(wanted, k)) return false;
  return true;
}

function prefixBreak(digits: Digits, end: number, prefixes: readonly Digits[]): number {
  for (let i = 0; i < prefixes.length; i++) {
    const prefix = prefixes[i] as Digits;
    if (prefix.length === end + 1 && matchesAt(digits, 0, prefix)) return 0;
  }
  return -1;
}

/** `limit` digits each one more (or each one less) than the one before; with `wraps`, 9 is followed by 0. */
function sequenceBreak(digits: Digits, end: number, limit: number, wraps: boolean): number {
  const start = end - limit + 1;
  if (limit === 0 || start < 0) return -1;
  let up = true;
  let down = true;
  for (let i = start; i < end && (up || down); i++) {
    const step = at(digits, i + 1) - at(digits, i);
    up &&= step === 1 || (wraps && step === -9);
    down &&= step === -1 || (wraps && step === 9);
  }
  return up || down ? start : -1;
}

/** MOSIP's pattern (\d)\d{0,limit-1}\1: the same digit again within `limit` places. */
function repeatBreak(digits: Digits, end: number, limit: number): number {
  for (let back = 1; back <= limit && back <= end; back++) if (at(digits, end - back) === at(digits, end)) return end - back;
  return -1;
}

/**
 * MOSIP's pattern (\d{limit,}).*?\1: a block of `limit` or more digits seen
 * again after it ends. When a longer block repeats so do its first `limit`
 * digits, so blocks of exactly `limit` digits are enough.
 */
function blockBreak(digits: Digits, end: number, limit: number): number {
  const block = end - limit + 1;
  if (limit === 0) return -1;
  for (let start = 0; start + limit <= block; start++) {
    let k = 0;
    while (k < limit && at(digits, start + k) === at(digits, block + k)) k++;
    if (k === limit) return start;
  }
  return -1;
}

/** MOSIP's pattern is [2468]{limit}: 0 does not count as even, and `limit` in a row is already too many. */
function evenRunBreak(digits: Digits, end: number, limit: number): number {
  const start = end - limit + 1;
  if (limit === 0 || start < 0) return -1;
  for (let i = start; i <= end; i++) {
    const digit = at(digits, i);
    if (digit === 0 || digit % 2 === 1) return -1;
  }
  return start;
}

function substringBreak(digits: Digits, end: number, numbers: readonly Digits[]): number {
  for (let i = 0; i < numbers.length; i++) {
    const start = end - (numbers[i] as Digits).length + 1;
    if (matchesAt(digits, start, numbers[i] as Digits)) return start;
  }
  return -1;
}

/** The rules as the finders read them. */
export interface Compiled {
  notStartWith: Digits[];
  longestPrefix: number;
  /** Bit d set: no number starts with the digit d. */
  bannedFirst: number;
  sequenceLimit: number;
  wraps: boolean;
  repeatingLimit: number;
  blockLimit: number;
  evenLimit: number;
  restricted: Digits[];
  cyclic: Digits[];
}

const compiledRules = new WeakMap<NumberRules, Compiled>();

/** Built once per rules object: generation asks for it on every digit. */
export function compile(rules: NumberRules): Compiled {
  let found = compiledRules.get(rules);
  if (!found) {
    found = {
      notStartWith: rules.notStartWith.map(toDigits),
      longestPrefix: Math.max(0, ...rules.notStartWith.map((prefix) => prefix.length)),
      bannedFirst: rules.notStartWith.filter((prefix) => prefix.length === 1).reduce((bits, prefix) => bits | (1 << Number(prefix)), 0),
      sequenceLimit: rules.sequenceLimit,
      wraps: rules.sequenceWraps ?? false,
      repeatingLimit: rules.repeatingLimit,
      blockLimit: rules.repeatingBlockLimit,
      evenLimit: rules.conjugativeEvenDigitsLimit ?? 0,
      restricted: rules.restrictedNumbers.map(toDigits),
      // A cyclic number longer than the number cannot occur in it.
      cyclic: (rules.cyclicNumbers ?? []).filter((number) => number.length <= rules.length).map(toDigits),
    };
    compiledRules.set(rules, found);
  }
  return found;
}

interface PatternRule {
  find(digits: Digits, end: number, rules: Compiled): number;
  reason(found: string, rules: Compiled): string;
}

/** For `violations`, with reasons; `breaksAt` below is the same list, spelt out for speed. */
export const PATTERN_RULES: PatternRule[] = [
  { find: (d, end, r) => prefixBreak(d, end, r.notStartWith), reason: (found) => `starts with ${found}` },
  { find: (d, end, r) => sequenceBreak(d, end, r.sequenceLimit, r.wraps), reason: (found) => `contains the sequence ${found}` },
  {
    find: (d, end, r) => repeatBreak(d, end, r.repeatingLimit),
    reason: (found, r) => `repeats the digit ${found[0]} within ${r.repeatingLimit} places (${found})`,
  },
  { find: (d, end, r) => blockBreak(d, end, r.blockLimit), reason: (found, r) => `repeats the block ${found.slice(0, r.blockLimit)}` },
  { find: (d, end, r) => evenRunBreak(d, end, r.evenLimit), reason: (found, r) => `has ${r.evenLimit} even digits in a row (${found})` },
  { find: (d, end, r) => substringBreak(d, end, r.restricted), reason: (found) => `contains the restricted number ${found}` },
  { find: (d, end, r) => substringBreak(d, end, r.cyclic), reason: (found) => `contains the cyclic number ${found}` },
];

/** Whether the digits ending at `end` break any pattern rule (PATTERN_RULES without the reasons or the indirect calls). */
export function breaksAt(d: Digits, end: number, r: Compiled): boolean {
  // The cheap guards skip calls that cannot find anything: this runs for every digit drawn.
  return (
    repeatBreak(d, end, r.repeatingLimit) >= 0 ||
    sequenceBreak(d, end, r.sequenceLimit, r.wraps) >= 0 ||
    (r.blockLimit > 0 && end >= 2 * r.blockLimit - 1 && blockBreak(d, end, r.blockLimit) >= 0) ||
    (r.evenLimit > 0 && evenRunBreak(d, end, r.evenLimit) >= 0) ||
    (end < r.longestPrefix && prefixBreak(d, end, r.notStartWith) >= 0) ||
    (r.restricted.length > 0 && substringBreak(d, end, r.restricted) >= 0) ||
    (r.cyclic.length > 0 && substringBreak(d, end, r.cyclic) >= 0)
  );
}

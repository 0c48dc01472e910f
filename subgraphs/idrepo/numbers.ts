import { randomInt } from 'node:crypto';

/*
 * UIN and VID numbers as MOSIP's kernel id generator makes and checks them
 * (UinFilterUtil, VidFilterUtils, ChecksumUtils). Pure functions: the numbers
 * already handed out live elsewhere.
 */

// ---------------------------------------------------------------------------
// Verhoeff checksum (ChecksumUtils): catches every single-digit error and
// every transposition of adjacent digits.

/** Multiplication in the dihedral group D5, row-major: MULTIPLY[a * 10 + b]. */
const MULTIPLY = Uint8Array.from(
  [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
    [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
    [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
    [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
    [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
    [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
    [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
    [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
    [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
  ].flat(),
);

/** The position permutation, applied (position mod 8) times: PERMUTE[(position % 8) * 10 + digit]. */
const PERMUTE = Uint8Array.from(
  [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
    [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
    [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
    [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
    [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
    [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
    [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
  ].flat(),
);

const INVERSE = Uint8Array.from([0, 4, 3, 2, 1, 5, 6, 7, 8, 9]);

type Digits = Uint8Array;

/** Typed-array reads: every index used here is in range by construction. */
const at = (table: Digits, index: number): number => table[index] as number;

/**
 * The Verhoeff accumulator over the first `count` digits, read right to left.
 * `shift` is 1 when a check digit is still to come (it will take position 0).
 */
function verhoeffSum(digits: Digits, count: number, shift: 0 | 1): number {
  let sum = 0;
  for (let i = 0; i < count; i++) {
    sum = at(MULTIPLY, sum * 10 + at(PERMUTE, ((i + shift) % 8) * 10 + at(digits, count - 1 - i)));
  }
  return sum;
}

const DIGITS_ONLY = /^\d+$/;

function toDigits(text: string): Uint8Array {
  const digits = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) digits[i] = text.charCodeAt(i) - 48;
  return digits;
}

/** The Verhoeff check digit to append to `digits`. */
export function verhoeffCheckDigit(digits: string): string {
  if (!DIGITS_ONLY.test(digits)) throw new Error(`not a string of digits: "${digits}"`);
  return String(at(INVERSE, verhoeffSum(toDigits(digits), digits.length, 1)));
}

/** Whether the last digit of `number` is the Verhoeff check digit of the others. */
export function verhoeffValid(number: string): boolean {
  return DIGITS_ONLY.test(number) && verhoeffSum(toDigits(number), number.length, 0) === 0;
}

// ---------------------------------------------------------------------------
// Rules, from the global configuration (config/syncdata/global.properties).

/**
 * A limit of 0 turns its rule off (as MOSIP's VidFilterUtils does for every limit).
 * Read-only: the checks are built once per rules object.
 */
export interface NumberRules {
  readonly length: number;
  readonly notStartWith: readonly string[];
  readonly restrictedNumbers: readonly string[];
  /** `limit` digits ascending or descending by one are refused ("123", "987"). */
  readonly sequenceLimit: number;
  /** The same digit again within `limit` positions is refused (limit 2: "11", "1x1"). */
  readonly repeatingLimit: number;
  /** A block of `limit` or more digits appearing twice is refused (limit 2: "4848", "12x12"). */
  readonly repeatingBlockLimit: number;
  /** UIN: `limit` even digits (2, 4, 6, 8) in a row are refused. */
  readonly conjugativeEvenDigitsLimit?: number;
  /** UIN: the first `limit` digits may not be the last `limit`. */
  readonly digitsLimit?: number;
  /** UIN: the first `limit` digits may not be the last `limit` reversed. */
  readonly reverseDigitsLimit?: number;
  /** UIN: sequences run on past 9 ("8901", "1098"); MOSIP's UIN filter searches "01234567890123456789", its VID filter "0123456789". */
  readonly sequenceWraps?: boolean;
  /** UIN: cyclic numbers (142857, …) refused as substrings, as MOSIP's UinFilterUtil does. */
  readonly cyclicNumbers?: readonly string[];
}

/** The cyclic numbers MOSIP's UinFilterUtil refuses (those longer than the number cannot occur). */
const CYCLIC_NUMBERS = [
  '142857',
  '0588235294117647',
  '052631578947368421',
  '0434782608695652173913',
  '0344827586206896551724137931',
  '0212765957446808510638297872340425531914893617',
  '0169491525423728813559322033898305084745762711864406779661',
  '016393442622950819672131147540983606557377049180327868852459',
  '010309278350515463917525773195876288659793814432989690721649484536082474226804123711340206185567',
];

type Config = Readonly<Record<string, string>>;

function wholeNumber(config: Config, key: string): number {
  const raw = config[key];
  if (raw === undefined) throw new Error(`${key} is missing from the global configuration`);
  if (!DIGITS_ONLY.test(raw.trim())) throw new Error(`${key} must be a whole number, not "${raw}"`);
  return Number(raw.trim());
}

function numberLength(config: Config, key: string): number {
  const length = wholeNumber(config, key);
  // One digit at least, then the check digit.
  if (length < 2) throw new Error(`${key} must be at least 2, not ${length}`);
  return length;
}

/**
 * A comma list of digit strings. Empty entries are dropped: MOSIP's split(',')
 * of an empty value gives [""], which every number "contains" and so refuses all.
 */
function digitList(config: Config, key: string, fallback?: string[]): string[] {
  const raw = config[key];
  if (raw === undefined) {
    if (fallback) return fallback;
    throw new Error(`${key} is missing from the global configuration`);
  }
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const bad = entries.find((entry) => !DIGITS_ONLY.test(entry));
  if (bad !== undefined) throw new Error(`${key} must list digits separated by commas, not "${bad}"`);
  return entries;
}

/** UIN rules from `platform.kernel.uin.*`. */
export function uinRules(config: Config): NumberRules {
  const key = (suffix: string) => `platform.kernel.uin.${suffix}`;
  return {
    length: numberLength(config, key('length')),
    // MOSIP reads mosip.kernel.uin.not-start-with; the spec's key list has none, and UINs never start with 0 or 1.
    notStartWith: digitList(config, key('not-start-with'), ['0', '1']),
    restrictedNumbers: digitList(config, key('restricted-numbers')),
    sequenceLimit: wholeNumber(config, key('length.sequence-limit')),
    repeatingLimit: wholeNumber(config, key('length.repeating-limit')),
    repeatingBlockLimit: wholeNumber(config, key('length.repeating-block-limit')),
    conjugativeEvenDigitsLimit: wholeNumber(config, key('length.conjugative-even-digits-limit')),
    digitsLimit: wholeNumber(config, key('length.digits-limit')),
    reverseDigitsLimit: wholeNumber(config, key('length.reverse-digits-limit')),
    sequenceWraps: true,
    cyclicNumbers: [...CYCLIC_NUMBERS],
  };
}

/** VID rules from `platform.kernel.vid.*`. */
export function vidRules(config: Config): NumberRules {
  const key = (suffix: string) => `platform.kernel.vid.${suffix}`;
  return {
    length: numberLength(config, key('length')),
    notStartWith: digitList(config, key('not-start-with')),
    // MOSIP's VidFilterUtils requires mosip.kernel.vid.restricted-numbers; the spec's key list has none, so it is optional here.
    restrictedNumbers: digitList(config, key('restricted-numbers'), []),
    sequenceLimit: wholeNumber(config, key('length.sequence-limit')),
    repeatingLimit: wholeNumber(config, key('length.repeating-limit')),
    repeatingBlockLimit: wholeNumber(config, key('length.repeating-block-limit')),
  };
}

// ---------------------------------------------------------------------------
// Pattern rules, checked on the digits ending at one index: a number breaks a
// rule when some such window does, and a generator can drop a candidate at its
// first bad digit. Each finder returns where the offending digits start, or -1;
// a limit of 0 turns its rule off (as MOSIP's VidFilterUtils does).

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
interface Compiled {
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
function compile(rules: NumberRules): Compiled {
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
const PATTERN_RULES: PatternRule[] = [
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
function breaksAt(d: Digits, end: number, r: Compiled): boolean {
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

// ---------------------------------------------------------------------------
// Rules on the whole number (UIN only).

/** The first and last `limit` digits, when the rule is on and the number long enough to have them. */
function ends(number: string, limit: number | undefined): { first: string; last: string } | undefined {
  if (limit === undefined || limit === 0 || number.length < limit) return undefined;
  return { first: number.slice(0, limit), last: number.slice(-limit) };
}

function wholeNumberViolations(number: string, rules: NumberRules): string[] {
  const found: string[] = [];
  const same = ends(number, rules.digitsLimit);
  if (same && same.first === same.last) found.push(`its first ${rules.digitsLimit} digits are its last ${rules.digitsLimit}`);
  const mirrored = ends(number, rules.reverseDigitsLimit);
  if (mirrored && mirrored.first === [...mirrored.last].reverse().join('')) {
    found.push(`its first ${rules.reverseDigitsLimit} digits are its last ${rules.reverseDigitsLimit} reversed`);
  }
  return found;
}

/** Every rule `number` breaks, each as a short reason; empty when it is a valid number under `rules`. */
export function violations(number: string, rules: NumberRules): string[] {
  const found: string[] = [];
  if (number.length !== rules.length) found.push(`has ${number.length} digits instead of ${rules.length}`);
  // The other rules speak of digits: nothing more to say about anything else.
  if (!DIGITS_ONLY.test(number)) return [...found, 'is not all digits'];
  if (!verhoeffValid(number)) found.push('fails the Verhoeff check digit');
  const digits = toDigits(number);
  const compiled = compile(rules);
  for (const rule of PATTERN_RULES) {
    for (let end = 0; end < digits.length; end++) {
      const start = rule.find(digits, end, compiled);
      if (start >= 0) {
        found.push(rule.reason(number.slice(start, end + 1), compiled));
        break;
      }
    }
  }
  return [...found, ...wholeNumberViolations(number, rules)];
}

// ---------------------------------------------------------------------------
// Generation.

/** Far more than sensible rules need (the shipped ones, a few per number); stricter ones are a configuration error. */
const MAX_ATTEMPTS = 1_000_000;

/** A uniform source redraws an excluded digit at most nine times in ten: this many in a row means it is not uniform. */
const MAX_REDRAWS = 1_000;

/** Digits come one at a time, so a candidate can be dropped at its first bad digit. */
type DigitSource = () => number;

/** Nine digits per draw keeps the arithmetic in 32-bit integers. */
const DIGITS_PER_DRAW = 9;
const DRAW_RANGE = 10 ** DIGITS_PER_DRAW;

/**
 * randomInt costs per call, not per digit, and dropped candidates make a VID
 * cost some sixty digits: so the default takes nine independent uniform digits
 * from each call. A caller's `random` is asked for one digit at a time (a test
 * can script them).
 */
function digitSource(random: ((n: number) => number) | undefined): DigitSource {
  if (random) {
    return () => {
      const digit = random(10);
      if (!Number.isInteger(digit) || digit < 0 || digit > 9) throw new Error(`random(10) returned ${digit}`);
      return digit;
    };
  }
  let pool = 0;
  let left = 0;
  return () => {
    if (left === 0) {
      pool = randomInt(DRAW_RANGE) | 0;
      left = DIGITS_PER_DRAW;
    }
    // Integer division (| 0), not %: a floating-point remainder is many times slower here.
    const rest = (pool / 10) | 0;
    const digit = pool - rest * 10;
    pool = rest;
    left--;
    return digit;
  };
}

/**
 * Whether `digit` can never stand at `index` after these digits: a banned first
 * digit, or one of the last repeating-limit digits. How many digits that
 * excludes depends on the index alone (the last repeating-limit digits of a
 * valid prefix all differ), so drawing again in their place leaves every
 * candidate as likely as any other.
 */
function excluded(digits: Digits, index: number, digit: number, rules: Compiled): boolean {
  if (index === 0) return (rules.bannedFirst & (1 << digit)) !== 0;
  for (let back = 1; back <= rules.repeatingLimit && back <= index; back++) if (at(digits, index - back) === digit) return true;
  return false;
}

/** How many digits `excluded` rules out at `index`. */
function excludedCount(index: number, rules: Compiled): number {
  if (index > 0) return Math.min(index, rules.repeatingLimit);
  let count = 0;
  for (let bits = rules.bannedFirst; bits; bits &= bits - 1) count++;
  return count;
}

/**
 * Fills `digits` with random digits and the check digit, giving up (false) at
 * the first digit that breaks a pattern rule. No later digit can mend that, so
 * this is MOSIP's generate-then-filter loop, only cheaper: a digit that the
 * rules exclude whatever comes next is drawn again rather than the whole
 * candidate (the shipped VID rules would otherwise drop 99 candidates in 100),
 * and the numbers that survive are still uniform over the valid ones.
 */
function fillCandidate(digits: Digits, rules: Compiled, nextDigit: DigitSource): boolean {
  const last = digits.length - 1;
  for (let i = 0; i < last; i++) {
    let digit = nextDigit();
    for (let redraws = 0; excluded(digits, i, digit, rules); redraws++) {
      if (redraws === MAX_REDRAWS) throw new Error(`the random source gave ${MAX_REDRAWS} excluded digits in a row`);
      digit = nextDigit();
    }
    digits[i] = digit;
    if (breaksAt(digits, i, rules)) return false;
  }
  digits[last] = at(INVERSE, verhoeffSum(digits, last, 1));
  return !breaksAt(digits, last, rules);
}

/**
 * A random number valid under `rules`: length-1 random digits, then the
 * Verhoeff digit, retried until `violations` finds nothing. Uniqueness is the
 * caller's: the shipped 10-digit UIN rules leave about 59 million numbers.
 */
export function generateNumber(rules: NumberRules, random?: (n: number) => number): string {
  const compiled = compile(rules);
  for (let index = 0; index < rules.length - 1; index++) {
    if (excludedCount(index, compiled) >= 10) throw new Error(`no digit can stand at place ${index + 1}: the rules are too strict`);
  }
  const nextDigit = digitSource(random);
  const digits = new Uint8Array(rules.length);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (!fillCandidate(digits, compiled, nextDigit)) continue;
    const number = digits.join('');
    if (violations(number, rules).length === 0) return number;
  }
  throw new Error(`no valid ${rules.length}-digit number in ${MAX_ATTEMPTS} attempts: the rules are too strict`);
}

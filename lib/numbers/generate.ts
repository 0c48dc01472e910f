import { randomInt } from 'node:crypto';
import type { NumberRules } from './config.js';
import { at, type Digits } from './digits.js';
import { breaksAt, compile, type Compiled } from './patterns.js';
import { violations } from './validate.js';
import { checkDigitOf } from './verhoeff.js';

/*
 * Generation, as MOSIP's kernel id generator does it (random digits, then the
 * filters), only cheaper: a candidate is dropped at its first bad digit.
 */

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
  digits[last] = checkDigitOf(digits, last);
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

import { at, DIGITS_ONLY, toDigits, type Digits } from './digits.js';

/*
 * Verhoeff checksum (MOSIP's ChecksumUtils): catches every single-digit error
 * and every transposition of adjacent digits.
 */

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

/** The check digit of the first `count` digits, as a digit (the generator's form: no text on the way). */
export const checkDigitOf = (digits: Digits, count: number): number => at(INVERSE, verhoeffSum(digits, count, 1));

/** The Verhoeff check digit to append to `digits`. */
export function verhoeffCheckDigit(digits: string): string {
  if (!DIGITS_ONLY.test(digits)) throw new Error(`not a string of digits: "${digits}"`);
  return String(checkDigitOf(toDigits(digits), digits.length));
}

/** Whether the last digit of `number` is the Verhoeff check digit of the others. */
export function verhoeffValid(number: string): boolean {
  return DIGITS_ONLY.test(number) && verhoeffSum(toDigits(number), number.length, 0) === 0;
}

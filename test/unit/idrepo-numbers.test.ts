import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generateNumber, uinRules, verhoeffCheckDigit, vidRules, violations, type NumberRules } from '../../lib/numbers.js';
import { toDigits } from '../../lib/numbers/digits.js';
import { breaksAt, compile, PATTERN_RULES } from '../../lib/numbers/patterns.js';
import { checkDigitOf } from '../../lib/numbers/verhoeff.js';
import { GLOBAL_KEYS, readConfigFile } from '../../lib/global-configuration.js';

/*
 * What id-numbers.test.ts leaves to the pieces of numbers/: the generator's
 * own spelling of the rules agrees with the validator's, and the rules it
 * does not check digit by digit are still met.
 */

const GLOBAL_FILE = fileURLToPath(new URL('../../config/syncdata/global.properties', import.meta.url));
const config = readConfigFile('PLATFORM_SYNC_GLOBAL_CONFIG', GLOBAL_FILE, GLOBAL_KEYS);
const uin = uinRules(config);
const vid = vidRules(config);

/** A seeded source (xorshift32): the same digits on every run. */
function seeded(seed: number) {
  let state = seed;
  return (n: number) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
}

const randomDigits = (random: (n: number) => number, length: number) => Array.from({ length }, () => random(10)).join('');

describe('the number rules, piece by piece', () => {
  it('break a number at the same digit whether the generator (breaksAt) or the validator (PATTERN_RULES) looks', () => {
    const variants: NumberRules[] = [
      uin,
      vid,
      { ...uin, repeatingLimit: 1, repeatingBlockLimit: 3, conjugativeEvenDigitsLimit: 2, sequenceLimit: 4 },
      { ...vid, notStartWith: ['0', '98', '123'], restrictedNumbers: ['42', '777'], repeatingLimit: 0, repeatingBlockLimit: 0 },
    ];
    const random = seeded(7);
    for (const rules of variants) {
      const compiled = compile(rules);
      for (let sample = 0; sample < 2_000; sample++) {
        const text = randomDigits(random, rules.length);
        const digits = toDigits(text);
        for (let end = 0; end < digits.length; end++) {
          const expected = PATTERN_RULES.some((rule) => rule.find(digits, end, compiled) >= 0);
          if (breaksAt(digits, end, compiled) !== expected) expect.fail(`${text} at ${end}: breaksAt says ${!expected}`);
        }
      }
    }
  });

  it('give the same check digit from digits as from text', () => {
    const random = seeded(11);
    for (let sample = 0; sample < 1_000; sample++) {
      const text = randomDigits(random, 1 + random(20));
      expect(String(checkDigitOf(toDigits(text), text.length))).toBe(verhoeffCheckDigit(text));
    }
  });

  it('refuse a prefix of several digits, and the generator never makes one', () => {
    const rules: NumberRules = { ...vid, notStartWith: ['0', '1', '98'] };
    expect(violations('9823456789012340', rules)).toContain('starts with 98');
    for (let made = 0; made < 2_000; made++) expect(generateNumber(rules).startsWith('98')).toBe(false);
  });

  it('meet the rules on the whole number (first and last digits), which only the validator checks', () => {
    // Six digits and nothing else to refuse: without the check, one number in fifty would end as it starts.
    const rules: NumberRules = {
      length: 6,
      notStartWith: [],
      restrictedNumbers: [],
      sequenceLimit: 0,
      repeatingLimit: 0,
      repeatingBlockLimit: 0,
      digitsLimit: 2,
      reverseDigitsLimit: 2,
    };
    expect(violations('120712', rules)).toContain('its first 2 digits are its last 2');
    expect(violations('120216', rules)).toEqual(['fails the Verhoeff check digit']);
    for (let made = 0; made < 5_000; made++) {
      const number = generateNumber(rules);
      expect(violations(number, rules)).toEqual([]);
    }
  });
});

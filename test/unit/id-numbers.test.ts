import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GLOBAL_KEYS, readConfigFile } from '../../lib/global-configuration.js';
import { generateNumber, uinRules, verhoeffCheckDigit, verhoeffValid, vidRules, violations, type NumberRules } from '../../lib/numbers.js';

const GLOBAL_FILE = fileURLToPath(new URL('../../config/syncdata/global.properties', import.meta.url));
const config = readConfigFile('PLATFORM_SYNC_GLOBAL_CONFIG', GLOBAL_FILE, GLOBAL_KEYS);
const uin = uinRules(config);
const vid = vidRules(config);

/** Digits to hand out one at a time, as `random(10)` would. */
function scripted(digits: string) {
  const queue = [...digits].map(Number);
  const random = (n: number) => {
    expect(n).toBe(10);
    const next = queue.shift();
    if (next === undefined) throw new Error('script exhausted');
    return next;
  };
  return { random, left: () => queue.length };
}

describe('Verhoeff checksum', () => {
  it('gives the published check digits', () => {
    // Wikipedia's worked examples, and a UIN from MOSIP's kernel-idvalidator README.
    expect(verhoeffCheckDigit('236')).toBe('3');
    expect(verhoeffCheckDigit('12345')).toBe('1');
    expect(verhoeffCheckDigit('142857')).toBe('0');
    expect(verhoeffValid('2363')).toBe(true);
    expect(verhoeffValid('123451')).toBe(true);
    expect(verhoeffValid('426789089018')).toBe(true);
    expect(() => verhoeffCheckDigit('12a')).toThrow(/digits/);
    expect(verhoeffValid('')).toBe(false);
    expect(verhoeffValid('12 3')).toBe(false);
  });

  it('detects every single-digit error and every adjacent transposition', () => {
    for (const number of ['7038951926', '9619087284974607', '426789089018']) {
      expect(verhoeffValid(number)).toBe(true);
      for (let i = 0; i < number.length; i++) {
        for (let digit = 0; digit <= 9; digit++) {
          if (String(digit) === number[i]) continue;
          expect(verhoeffValid(number.slice(0, i) + String(digit) + number.slice(i + 1)), `${number} with ${digit} at ${i}`).toBe(false);
        }
        if (i + 1 < number.length && number[i] !== number[i + 1]) {
          const swapped = number.slice(0, i) + number[i + 1]! + number[i]! + number.slice(i + 2);
          expect(verhoeffValid(swapped), `${number} swapped at ${i}`).toBe(false);
        }
      }
    }
  });
});

describe('rules from the global configuration', () => {
  it('reads the shipped file', () => {
    expect(uin).toMatchObject({
      length: 10,
      notStartWith: ['0', '1'],
      restrictedNumbers: ['786', '666'],
      sequenceLimit: 3,
      repeatingLimit: 2,
      repeatingBlockLimit: 2,
      conjugativeEvenDigitsLimit: 3,
      digitsLimit: 5,
      reverseDigitsLimit: 5,
      sequenceWraps: true,
    });
    expect(uin.cyclicNumbers).toContain('142857');
    expect(vid).toEqual({ length: 16, notStartWith: ['0', '1'], restrictedNumbers: [], sequenceLimit: 3, repeatingLimit: 2, repeatingBlockLimit: 2 });
  });

  it('names a missing or non-numeric key', () => {
    const without = (key: string) => Object.fromEntries(Object.entries(config).filter(([k]) => k !== key));
    expect(() => uinRules(without('platform.kernel.uin.length.digits-limit'))).toThrow(/platform\.kernel\.uin\.length\.digits-limit is missing/);
    expect(() => vidRules(without('platform.kernel.vid.not-start-with'))).toThrow(/platform\.kernel\.vid\.not-start-with is missing/);
    expect(() => uinRules({ ...config, 'platform.kernel.uin.length.sequence-limit': 'three' })).toThrow(/platform\.kernel\.uin\.length\.sequence-limit/);
    expect(() => vidRules({ ...config, 'platform.kernel.vid.length': '-16' })).toThrow(/platform\.kernel\.vid\.length/);
    expect(() => vidRules({ ...config, 'platform.kernel.vid.length': '1' })).toThrow(/platform\.kernel\.vid\.length must be at least 2/);
    expect(() => uinRules({ ...config, 'platform.kernel.uin.restricted-numbers': '786,abc' })).toThrow(/platform\.kernel\.uin\.restricted-numbers/);
  });

  it('takes optional lists when given, and drops empty entries', () => {
    expect(uinRules({ ...config, 'platform.kernel.uin.not-start-with': '0,1,9' }).notStartWith).toEqual(['0', '1', '9']);
    expect(vidRules({ ...config, 'platform.kernel.vid.restricted-numbers': '786, 666' }).restrictedNumbers).toEqual(['786', '666']);
    // MOSIP's split(',') would make "" a restricted number, which every number contains.
    expect(uinRules({ ...config, 'platform.kernel.uin.restricted-numbers': '' }).restrictedNumbers).toEqual([]);
  });
});

describe('violations', () => {
  it('passes valid numbers', () => {
    expect(violations('7038951926', uin)).toEqual([]);
    expect(violations('9619087284974607', vid)).toEqual([]);
  });

  it('refuses anything but the right number of digits', () => {
    expect(violations('703895192', uin)).toContain('has 9 digits instead of 10');
    expect(violations('70389519265', uin)).toContain('has 11 digits instead of 10');
    expect(violations('70389a1926', uin)).toEqual(['is not all digits']);
    expect(violations('', uin)).toEqual(['has 0 digits instead of 10', 'is not all digits']);
  });

  it('refuses a wrong check digit', () => {
    expect(violations('7038951927', uin)).toEqual(['fails the Verhoeff check digit']);
    expect(violations('9619087284974603', vid)).toEqual(['fails the Verhoeff check digit']);
  });

  it('refuses a number starting with 0 or 1', () => {
    expect(violations('1240635704', uin)).toEqual(['starts with 1']);
    expect(violations('0824309271649758', vid)).toEqual(['starts with 0']);
  });

  it('refuses a sequence of sequence-limit digits, up or down', () => {
    expect(violations('4983450680', uin)).toEqual(['contains the sequence 345']);
    expect(violations('7261987689', uin)).toEqual(['contains the sequence 987']);
    expect(violations('7214307658948390', vid)).toEqual(['contains the sequence 765']);
  });

  it('runs UIN sequences on past 9, as MOSIP does, but not VID ones', () => {
    expect(violations('3290179480', uin)).toEqual(['contains the sequence 901']);
    expect(violations('9810932457', uin)).toEqual(['contains the sequence 109']);
    expect(violations('2382189013649852', vid)).toEqual([]);
  });

  it('refuses a digit repeated within repeating-limit places', () => {
    expect(violations('8503553615', uin)).toEqual(['repeats the digit 5 within 2 places (55)']);
    expect(violations('5403525994', uin)).toEqual(['repeats the digit 5 within 2 places (525)']);
    expect(violations('7698413834782562', vid)).toEqual(['repeats the digit 3 within 2 places (383)']);
  });

  it('refuses a block of repeating-block-limit digits seen twice', () => {
    expect(violations('9480487263', uin)).toEqual(['repeats the block 48']);
    expect(violations('9709283724937298', vid)).toEqual(['repeats the block 37']);
    // "4848" also repeats 4 and 8 within two places; with that rule off only the block is left.
    expect(violations('48480', { ...vid, length: 5, notStartWith: [], repeatingLimit: 0 })).toEqual(['repeats the block 48']);
  });

  it('refuses conjugative-even-digits-limit even digits in a row (UIN), 0 not counting, as in MOSIP', () => {
    expect(violations('4694865316', uin)).toEqual(['has 3 even digits in a row (486)']);
    expect(violations('8254086058', uin)).toEqual([]);
  });

  it('refuses a restricted number', () => {
    expect(violations('5681786120', uin)).toEqual(['contains the restricted number 786']);
  });

  it("refuses MOSIP's cyclic numbers (UIN)", () => {
    // 142857 holds 4, 2, 8 in a row, so the even-digit rule is turned off to isolate this one.
    expect(violations('4614285701', { ...uin, conjugativeEvenDigitsLimit: 0 })).toEqual(['contains the cyclic number 142857']);
  });

  it('refuses first digits equal to the last, straight or reversed (UIN)', () => {
    // Under the shipped rules these numbers also repeat a block or a digit; those rules are turned off to isolate these.
    expect(violations('3479034790', { ...uin, repeatingBlockLimit: 0 })).toEqual(['its first 5 digits are its last 5']);
    expect(violations('3479034790', uin)).toEqual(['repeats the block 34', 'its first 5 digits are its last 5']);
    expect(violations('6947887496', { ...uin, repeatingLimit: 0 })).toEqual(['its first 5 digits are its last 5 reversed']);
  });

  it('lists every rule broken, and a limit of 0 turns its rule off', () => {
    expect(violations('1234866690', uin)).toEqual([
      'fails the Verhoeff check digit',
      'starts with 1',
      'contains the sequence 123',
      'repeats the digit 6 within 2 places (66)',
      'has 3 even digits in a row (486)',
      'contains the restricted number 666',
    ]);
    const off: NumberRules = { ...uin, sequenceLimit: 0, repeatingLimit: 0, notStartWith: [], conjugativeEvenDigitsLimit: 0 };
    expect(violations('1234567890', off)).toEqual([]);
  });
});

describe('generateNumber', () => {
  it('draws a digit again when it can never fit, drops a candidate at its first bad digit, and appends the check digit', () => {
    // 1 cannot start a UIN: drawn again (7). 7, 8, 9 is a sequence: dropped. Then 7, 7
    // repeats: drawn again (0), and 703895192 takes its check digit 6.
    const script = scripted('17897703895192');
    expect(generateNumber(uin, script.random)).toBe('7038951926');
    expect(script.left()).toBe(0);
  });

  it('draws every valid number equally often', () => {
    // Small enough to list: 4-digit numbers under the VID patterns.
    const rules: NumberRules = { ...vid, length: 4 };
    const valid: string[] = [];
    for (let n = 0; n < 10_000; n++) if (violations(String(n).padStart(4, '0'), rules).length === 0) valid.push(String(n).padStart(4, '0'));
    const perNumber = 300;
    const counts = new Map<string, number>();
    for (let i = 0; i < valid.length * perNumber; i++) {
      const number = generateNumber(rules);
      counts.set(number, (counts.get(number) ?? 0) + 1);
    }
    expect(counts.size).toBe(valid.length);
    // Pearson's chi-squared against the uniform distribution, held under its mean plus six standard deviations.
    const chiSquared = valid.reduce((sum, number) => sum + ((counts.get(number) ?? 0) - perNumber) ** 2 / perNumber, 0);
    const freedom = valid.length - 1;
    expect(chiSquared).toBeLessThan(freedom + 6 * Math.sqrt(2 * freedom));
  });

  it('refuses a random source out of range, and rules no number can meet', () => {
    expect(() => generateNumber(uin, () => 10)).toThrow(/random\(10\) returned 10/);
    expect(() => generateNumber(uin, () => 0)).toThrow(/1000 excluded digits in a row/);
    expect(() => generateNumber({ ...vid, sequenceLimit: 1 })).toThrow(/no valid 16-digit number in 1000000 attempts/);
    expect(() => generateNumber({ ...vid, repeatingLimit: 10 })).toThrow(/no digit can stand at place 11/);
    expect(() => generateNumber({ ...vid, notStartWith: [...'0123456789'] })).toThrow(/no digit can stand at place 1/);
  });

  it('makes 100,000 valid UINs and 100,000 valid VIDs, all distinct', () => {
    // The shipped rules leave about 59 million 10-digit UINs, so 100,000 random draws
    // repeat about 85 of them (birthday bound): uniqueness is the UIN pool's job, as in
    // MOSIP, where the table refuses a duplicate; here a repeat is drawn again. About
    // 9 * 10^12 16-digit VIDs: a repeat in 100,000 is a one-in-a-thousand event.
    const distinct = (rules: typeof uin) => {
      const numbers = new Set<string>();
      let repeats = 0;
      while (numbers.size < 100_000) {
        const number = generateNumber(rules);
        if (numbers.has(number)) repeats++;
        numbers.add(number);
      }
      return { numbers, repeats };
    };
    const uins = distinct(uin);
    expect(uins.repeats).toBeLessThan(500);
    const vids = distinct(vid);
    expect(vids.repeats).toBeLessThan(5);
    for (const number of uins.numbers) if (violations(number, uin).length) expect.fail(`${number}: ${violations(number, uin).join(', ')}`);
    for (const number of vids.numbers) if (violations(number, vid).length) expect.fail(`${number}: ${violations(number, vid).join(', ')}`);
  }, 60_000);
});

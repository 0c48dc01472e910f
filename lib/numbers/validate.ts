import type { NumberRules } from './config.js';
import { DIGITS_ONLY, toDigits } from './digits.js';
import { compile, PATTERN_RULES } from './patterns.js';
import { verhoeffValid } from './verhoeff.js';

/** Rules on the whole number (UIN only). */

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
